/**
 * Entry point of the viewer (`npm start`): the double-wishbone corner of
 * examples/suspension/double_wishbone.yaml, embedded, ready to drag.
 */
import './style.css';
import { ViewerApp } from './app';

const app = new ViewerApp();

declare global {
  interface Window {
    /** The running viewer, for the end-to-end tests and the benchmark. */
    __kinemate: ViewerApp;
  }
}
window.__kinemate = app;
