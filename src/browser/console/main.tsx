import { render } from 'preact';
import { wireAccount } from './account';
import { Console } from './app';
import { followEvents } from './live';

wireAccount();
const root = document.getElementById('console');
if (root) {
  root.replaceChildren();
  render(<Console />, root);
  void followEvents(new AbortController().signal);
}
