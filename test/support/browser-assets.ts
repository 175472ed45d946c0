import { loadBrowserAssets } from '../../src/http/browser-assets';

/** Where the pages load a bundle from (`/assets/<hashed name>`), as the last build named it. */
export function assetPath(name: string): string {
  return `/assets/${loadBrowserAssets().fileOf(name)}`;
}
