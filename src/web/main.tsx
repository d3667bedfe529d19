import { createRoot } from 'react-dom/client';
import { registerServiceWorker } from './app/service-worker';
import { start } from './app/start';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');
start(createRoot(container));
registerServiceWorker();
