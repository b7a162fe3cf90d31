import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../shared/styles.css';
import '../shared/area.css';
import './studio.css';
import { App } from './App';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
