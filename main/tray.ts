import { Menu, nativeImage, Tray } from 'electron';
import { buildTrayMenu, describeTooltip, type ShellState, type TrayActions } from './tray-status';

export type ShellTray = { show(state: ShellState): void; destroy(): void };

export function createTray(iconFile: string, actions: TrayActions): ShellTray {
  const icon = nativeImage.createFromPath(iconFile);
  const tray = new Tray(process.platform === 'darwin' ? icon.resize({ width: 18, height: 18 }) : icon);
  tray.on('click', () => actions.open());
  const show = (state: ShellState) => {
    if (tray.isDestroyed()) return;
    tray.setToolTip(describeTooltip(state));
    tray.setContextMenu(Menu.buildFromTemplate(buildTrayMenu(state, actions)));
  };
  show({ phase: 'starting' });
  return { show, destroy: () => tray.destroy() };
}
