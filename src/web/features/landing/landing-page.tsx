import { Link } from 'react-router';
import { PRODUCT_NAME } from '../../../shared/product';
import { buttonClass } from '../../components/button';
import { Icon, PathIcon } from '../../components/icon';
import { useDocumentTitle } from '../../lib/use-document-title';

type Feature = { title: string; text: string; path: string };

/** The five features the product advertises, with hand-drawn outline icons. */
const FEATURES: Feature[] = [
  {
    title: 'Inventory Management',
    text: 'Know what is on your shelves. Track stock by product, category and supplier, and see low and empty stock before customers do.',
    path: 'M3 7l9-4 9 4-9 4-9-4zM3 7v10l9 4 9-4V7M12 11v10',
  },
  {
    title: 'Customer Relationship Management',
    text: 'Keep the people who buy from you close: who ordered what, where they are, and what they need next.',
    path: 'M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM2 21c0-4 3-6 7-6s7 2 7 6M16 3.5a4 4 0 0 1 0 7.5M18 15c2.5.5 4 2.5 4 6',
  },
  {
    title: 'Point of Sale',
    text: 'Take orders in a few clicks. Totals are worked out for you and stock is updated the moment an order is placed.',
    path: 'M4 4h16v10H4zM8 18h8M12 14v4M7 8h4',
  },
  {
    title: 'Sales Reporting and Analytics',
    text: 'Today’s orders, revenue, best sellers and stock levels on one dashboard, always up to date.',
    path: 'M4 20V10M10 20V4M16 20v-7M22 20H2',
  },
  {
    title: 'Accounting',
    text: 'Every order keeps its price, quantity and total as they were when it was placed, so your books stay right.',
    path: 'M6 3h12v18H6zM9 7h6M9 11h6M9 15h3',
  },
];

/** The public marketing page (/home and /retail). Every call to action leads to the login page. */
export function LandingPage() {
  useDocumentTitle('');
  return (
    <div className="min-h-dvh bg-white text-slate-900">
      <header className="border-b border-slate-200">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-4 sm:px-6">
          <Link to="/home" className="flex items-center gap-2 text-lg font-bold text-slate-900">
            <span className="flex size-8 items-center justify-center rounded-lg bg-indigo-600 text-white">
              <Icon name="box" className="size-5" />
            </span>
            {PRODUCT_NAME}
          </Link>
          <nav aria-label="Site">
            <ul className="flex items-center gap-1 text-sm font-medium sm:gap-4">
              <li>
                <Link to="/home" className="rounded-md px-2 py-2 text-slate-700 hover:text-indigo-700">
                  Home
                </Link>
              </li>
              <li>
                <a href="#solutions" className="rounded-md px-2 py-2 text-slate-700 hover:text-indigo-700">
                  Solutions
                </a>
              </li>
              <li>
                <Link to="/login" className={buttonClass('primary', 'sm', 'ml-1')}>
                  Login
                </Link>
              </li>
            </ul>
          </nav>
        </div>
      </header>

      <main>
        <section className="bg-gradient-to-b from-indigo-50 to-white">
          <div className="mx-auto max-w-6xl px-4 py-16 text-center sm:px-6 sm:py-24">
            <p className="text-sm font-semibold tracking-wide text-indigo-700 uppercase">{PRODUCT_NAME}</p>
            <h1 className="mx-auto mt-3 max-w-3xl text-4xl font-extrabold tracking-tight sm:text-6xl">
              Simplify your Retail Operations.
            </h1>
            <p className="mx-auto mt-5 max-w-2xl text-lg text-slate-600">
              One platform to manage, grow and scale your retail business: stock, orders, customers and sales
              in one place.
            </p>
            <div className="mt-8 flex justify-center">
              <Link to="/login" className={buttonClass('primary', 'md', 'px-6 py-3 text-base')}>
                Get Started
              </Link>
            </div>
          </div>
        </section>

        <section id="solutions" aria-labelledby="solutions-title" className="scroll-mt-4">
          <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
            <h2 id="solutions-title" className="text-center text-3xl font-bold tracking-tight">
              Everything your store runs on
            </h2>
            <p className="mx-auto mt-3 max-w-2xl text-center text-slate-600">
              Five tools that work together, so nothing has to be typed twice.
            </p>
            <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-6">
              {FEATURES.map((feature, index) => (
                <li
                  key={feature.title}
                  // Three cards on the first row and two centred below on wide screens.
                  className={`rounded-xl border border-slate-200 p-6 shadow-sm lg:col-span-2 ${index === 3 ? 'lg:col-start-2' : ''} ${index === 4 ? 'sm:col-span-2 lg:col-span-2' : ''}`}
                >
                  <span className="flex size-11 items-center justify-center rounded-lg bg-indigo-100 text-indigo-700">
                    <PathIcon path={feature.path} className="size-6" />
                  </span>
                  <h3 className="mt-4 text-lg font-semibold">{feature.title}</h3>
                  <p className="mt-2 text-sm leading-6 text-slate-600">{feature.text}</p>
                </li>
              ))}
            </ul>
          </div>
        </section>
      </main>

      <footer>
        <section aria-labelledby="cta-title" className="bg-indigo-700 text-white">
          <div className="mx-auto flex max-w-6xl flex-col items-center gap-4 px-4 py-14 text-center sm:px-6">
            <h2 id="cta-title" className="text-3xl font-bold tracking-tight">
              Ready to run a simpler store?
            </h2>
            <p className="text-indigo-100">Start today. No credit card required.</p>
            <Link
              to="/login"
              className="rounded-md bg-white px-6 py-3 text-base font-semibold text-indigo-700 hover:bg-indigo-50"
            >
              Start now
            </Link>
          </div>
        </section>
        <div className="border-t border-slate-200 bg-slate-50">
          <div className="mx-auto flex max-w-6xl flex-col items-center justify-between gap-3 px-4 py-6 text-sm text-slate-600 sm:flex-row sm:px-6">
            <p>© 2025 {PRODUCT_NAME}. All rights reserved.</p>
            <p>Inventory, orders and sales for small stores.</p>
          </div>
        </div>
      </footer>
    </div>
  );
}
