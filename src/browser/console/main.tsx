import { render } from 'preact';
import { watchSession } from '../api';
import { wireAccount } from './account';
import { Console } from './app';
import { followEvents, markSignedOut } from './live';

wireAccount();
watchSession(markSignedOut);
const root = document.getElementById('console');
if (root) {
  root.replaceChildren();
  render(<Console />, root);
  void followEvents(new AbortController().signal);
}
