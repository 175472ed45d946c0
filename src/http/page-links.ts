import type { BrowserAssets } from './browser-assets';
import type { PathTo } from './operations';

/** The addresses server-rendered pages link to, all from api.yaml's operations. */
export interface PageLinks {
  apiDocument: string;
  swaggerUi: string;
  redoc: string;
  /** A file of the pages' own bundles by its plain name (`console.js`): `/assets/{hashed name}`. */
  asset(name: string): string;
  /** A file of Swagger UI's (`/docs/{file}`). */
  swaggerAsset(file: string): string;
  /** A file of ReDoc's (`/redoc/{file}`). */
  redocAsset(file: string): string;
  clientReadme: string;
  signInWith(provider: string): string;
  passwordSignIn: string;
  login: string;
  signUp: string;
}

export function pageLinksOf(pathTo: PathTo, assets: Pick<BrowserAssets, 'fileOf'>): PageLinks {
  return {
    apiDocument: pathTo('getApiDocument'),
    swaggerUi: pathTo('getSwaggerUi'),
    redoc: pathTo('getRedoc'),
    asset: (name) => pathTo('getPageAsset', { file: assets.fileOf(name) }),
    swaggerAsset: (file) => pathTo('getSwaggerUiAsset', { file }),
    redocAsset: (file) => pathTo('getRedocAsset', { file }),
    signInWith: (provider) => pathTo('startOAuthSignIn', { provider }),
    passwordSignIn: pathTo('logIn'),
    clientReadme: pathTo('getClientReadme'),
    login: pathTo('getLoginPage'),
    signUp: pathTo('getSignUpPage'),
  };
}
