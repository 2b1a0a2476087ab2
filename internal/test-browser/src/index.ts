export { browser, CookieJar, type Page, readForm } from './browser';
