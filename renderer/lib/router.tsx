import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useState,
  type AnchorHTMLAttributes,
  type ReactNode,
} from 'react';

export const BASE = '/admin';

type RouterValue = {
  path: string;
  search: URLSearchParams;
  navigate: (to: string, options?: { replace?: boolean }) => void;
};

const RouterContext = createContext<RouterValue>({
  path: '/',
  search: new URLSearchParams(),
  navigate: () => undefined,
});

const currentPath = () => {
  const path = window.location.pathname.startsWith(BASE)
    ? window.location.pathname.slice(BASE.length)
    : window.location.pathname;
  return path === '' ? '/' : path;
};

/** The UI's routes live under /admin in the browser's history; the server answers index.html for all of them. */
export function RouterProvider({ children }: { children: ReactNode }) {
  const [location, setLocation] = useState(() => ({ path: currentPath(), search: window.location.search }));
  useEffect(() => {
    const onPop = () => setLocation({ path: currentPath(), search: window.location.search });
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const navigate = useCallback((to: string, options: { replace?: boolean } = {}) => {
    const url = BASE + to;
    if (options.replace) window.history.replaceState(null, '', url);
    else window.history.pushState(null, '', url);
    const [path = '/', search = ''] = to.split('?');
    setLocation({ path, search: search ? `?${search}` : '' });
    window.scrollTo(0, 0);
  }, []);
  return (
    <RouterContext.Provider value={{ path: location.path, search: new URLSearchParams(location.search), navigate }}>
      {children}
    </RouterContext.Provider>
  );
}

export const useRouter = () => useContext(RouterContext);

/** `/contracts/:id` against `/contracts/12` -> { id: '12' }; undefined when it does not match. */
export function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/').filter(Boolean);
  const have = path.split('/').filter(Boolean);
  if (want.length !== have.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i += 1) {
    const part = want[i] as string;
    const value = have[i] as string;
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(value);
    else if (part !== value) return undefined;
  }
  return params;
}

type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { to: string };

export function Link({ to, onClick, children, ...rest }: LinkProps) {
  const { navigate } = useRouter();
  return (
    <a
      {...rest}
      href={BASE + to}
      onClick={(event) => {
        onClick?.(event);
        if (
          event.defaultPrevented ||
          event.button !== 0 ||
          event.metaKey ||
          event.ctrlKey ||
          event.shiftKey ||
          event.altKey
        )
          return;
        event.preventDefault();
        navigate(to);
      }}
    >
      {children}
    </a>
  );
}
