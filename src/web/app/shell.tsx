import { useEffect, useRef, useState } from 'react';
import { NavLink, Outlet, useLocation, useNavigationType } from 'react-router';
import { PRODUCT_NAME } from '../../shared/product';
import { can } from '../../shared/roles';
import { Icon } from '../components/icon';
import { Modal } from '../components/modal';
import { useSendingOutbox } from '../features/offline/outbox';
import { ROLE_LABEL } from '../lib/format';
import { useSignedInUser } from '../lib/signed-in';
import { NARROW, useMediaQuery } from '../lib/use-media-query';
import { MENUS, type MenuItem } from './navigation';

const LINK =
  'flex min-h-11 items-center gap-3 rounded-md px-3 py-2.5 text-sm font-medium focus-visible:outline-indigo-300';
const ACTIVE = 'bg-indigo-600 text-white';
const INACTIVE = 'text-slate-300 hover:bg-slate-800 hover:text-white';
const DRAWER_INACTIVE = 'text-slate-700 hover:bg-slate-100 hover:text-slate-900';

/** The role's menu: every item with its icon and its name written out. */
function MenuLinks({
  menu,
  inactive,
  onNavigate,
}: {
  menu: MenuItem[];
  inactive: string;
  onNavigate?: () => void;
}) {
  return (
    <nav aria-label="Main">
      <ul className="space-y-1">
        {menu.map((item) => (
          <li key={item.to}>
            <NavLink
              to={item.to}
              end={item.end}
              onClick={onNavigate}
              className={({ isActive }) => `${LINK} ${isActive ? ACTIVE : inactive}`}
            >
              <Icon name={item.icon} />
              <span>{item.label}</span>
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * The role area's frame. From md (768 px) a fixed 16rem sidebar with the menu; narrower, a top bar
 * whose Menu button opens the same menu, labelled, in a panel: a row of bare icons told a phone
 * user nothing, and their names needed a hover that touch does not have.
 */
export function AppShell() {
  const user = useSignedInUser();
  // DESIGN §21: the sales a seller made offline are sent from whatever screen is open.
  useSendingOutbox(can(user.role, 'sales:create') ? user._id : null);
  const menu = MENUS[user.role];
  const narrow = useMediaQuery(NARROW);
  const [menuOpen, setMenuOpen] = useState(false);
  const showMenu = menuOpen && narrow;
  // After going somewhere from the menu, focus lands on the new page rather than the Menu button.
  const focusMain = useRef(false);

  // Going somewhere closes the menu (a link in it, or Back while it is open). A list writing its
  // search or page into the address of the same page (a replace) is not going anywhere: a search
  // typed just before opening the menu must not shut it under the finger.
  const location = useLocation();
  const navigationType = useNavigationType();
  const [seen, setSeen] = useState({ key: location.key, pathname: location.pathname });
  if (seen.key !== location.key) {
    setSeen({ key: location.key, pathname: location.pathname });
    const samePlace = navigationType === 'REPLACE' && seen.pathname === location.pathname;
    if (menuOpen && !samePlace) {
      focusMain.current = true;
      setMenuOpen(false);
    }
  }

  useEffect(() => {
    if (showMenu || !focusMain.current) return;
    focusMain.current = false;
    document.getElementById('main')?.focus();
  }, [showMenu]);

  return (
    <div className="min-h-dvh bg-slate-50">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-white px-3 py-2 text-sm font-medium text-indigo-700 shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <header className="sticky top-0 z-30 flex h-14 items-center gap-2 bg-slate-900 px-2 text-white md:hidden print:hidden">
        <button
          type="button"
          aria-haspopup="dialog"
          aria-expanded={showMenu}
          onClick={() => setMenuOpen(true)}
          className="inline-flex min-h-11 items-center gap-2 rounded-md px-3 text-sm font-medium hover:bg-slate-800 focus-visible:outline-indigo-300"
        >
          <Icon name="menu" />
          Menu
        </button>
        <span className="text-lg font-bold tracking-tight">{PRODUCT_NAME}</span>
      </header>
      <aside className="fixed inset-y-0 left-0 z-30 hidden w-64 flex-col bg-slate-900 text-white md:flex">
        <div className="flex h-16 items-center gap-2 border-b border-slate-800 px-5">
          <Icon name="box" className="size-6 text-indigo-400" />
          <span className="text-lg font-bold tracking-tight">{PRODUCT_NAME}</span>
        </div>
        <div className="flex-1 overflow-y-auto px-3 py-4">
          <MenuLinks menu={menu} inactive={INACTIVE} />
        </div>
        <div className="border-t border-slate-800 px-5 py-4 text-sm">
          <p className="truncate font-medium text-white">{user.name}</p>
          <p className="text-slate-400">{ROLE_LABEL[user.role]}</p>
        </div>
      </aside>
      {showMenu ? (
        <Modal title="Menu" placement="start" onClose={() => setMenuOpen(false)}>
          <button
            type="button"
            onClick={() => setMenuOpen(false)}
            className="absolute top-2.5 right-2.5 inline-flex min-h-11 items-center rounded-md px-3 text-sm font-medium text-slate-700 hover:bg-slate-100"
          >
            Close
          </button>
          <div className="mb-4 border-b border-slate-200 pb-4 text-sm">
            <p className="truncate font-medium text-slate-900">{user.name}</p>
            <p className="text-slate-500">{ROLE_LABEL[user.role]}</p>
          </div>
          <MenuLinks
            menu={menu}
            inactive={DRAWER_INACTIVE}
            onNavigate={() => {
              focusMain.current = true;
              setMenuOpen(false);
            }}
          />
        </Modal>
      ) : null}
      <main
        id="main"
        tabIndex={-1}
        className="min-w-0 px-3 py-5 focus:outline-none sm:px-6 md:ml-64 md:px-8 md:py-8"
      >
        <Outlet />
      </main>
    </div>
  );
}
