import fs from 'node:fs';
import path from 'node:path';

/** The DATA_DIR layout: one database, stored files, keys and logs. */
export type DataDirLayout = {
  root: string;
  database: string;
  files: string;
  keys: string;
  logs: string;
};

export function prepareDataDir(root: string): DataDirLayout {
  const layout: DataDirLayout = {
    root,
    database: path.join(root, 'signdesk.sqlite'),
    files: path.join(root, 'files'),
    keys: path.join(root, 'keys'),
    logs: path.join(root, 'logs'),
  };
  for (const dir of [layout.root, layout.files, layout.logs]) fs.mkdirSync(dir, { recursive: true });
  fs.mkdirSync(layout.keys, { recursive: true, mode: 0o700 });
  return layout;
}
