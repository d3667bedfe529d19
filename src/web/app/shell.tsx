import { NavLink, Outlet } from 'react-router';
import { PRODUCT_NAME, PRODUCT_SHORT_NAME } from '../../shared/product';
import { Icon } from '../components/icon';
import { ROLE_LABEL } from '../lib/format';
import { useSignedInUser } from '../lib/signed-in';
import { MENUS } from './navigation';

const LINK =
  'flex items-center justify-center gap-3 rounded-md px-2 py-2.5 text-sm font-medium focus-visible:outline-indigo-300 md:justify-start md:px-3';
const ACTIVE = 'bg-indigo-600 text-white';
const INACTIVE = 'text-slate-300 hover:bg-slate-800 hover:text-white';

/** The role area's frame: a fixed sidebar (narrow on phones, 16rem from md) and the page. */
export function AppShell() {
  const user = useSignedInUser();
  const menu = MENUS[user.role];
  return (
    <div className="min-h-dvh bg-slate-50">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-white px-3 py-2 text-sm font-medium text-indigo-700 shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <aside className="fixed inset-y-0 left-0 z-30 flex w-16 flex-col bg-slate-900 text-white md:w-64">
        <div className="flex h-16 items-center justify-center gap-2 border-b border-slate-800 px-2 md:justify-start md:px-5">
          <Icon name="box" className="hidden size-6 text-indigo-400 md:block" />
          <span className="text-lg font-bold tracking-tight">
            <span className="md:hidden">{PRODUCT_SHORT_NAME}</span>
            <span className="hidden md:inline">{PRODUCT_NAME}</span>
          </span>
        </div>
        <nav aria-label="Main" className="flex-1 overflow-y-auto px-2 py-4 md:px-3">
          <ul className="space-y-1">
            {menu.map((item) => (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  end={item.end}
                  title={item.label}
                  className={({ isActive }) => `${LINK} ${isActive ? ACTIVE : INACTIVE}`}
                >
                  <Icon name={item.icon} />
                  <span className="sr-only md:not-sr-only">{item.label}</span>
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="hidden border-t border-slate-800 px-5 py-4 text-sm md:block">
          <p className="truncate font-medium text-white">{user.name}</p>
          <p className="text-slate-400">{ROLE_LABEL[user.role]}</p>
        </div>
      </aside>
      <main
        id="main"
        tabIndex={-1}
        className="ml-16 min-w-0 px-3 py-5 focus:outline-none sm:px-6 md:ml-64 md:px-8 md:py-8"
      >
        <Outlet />
      </main>
    </div>
  );
}
