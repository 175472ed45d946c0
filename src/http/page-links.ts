import type { PathTo } from './operations';

/** The addresses server-rendered pages link to, all from api.yaml's operations. */
export interface PageLinks {
  apiDocument: string;
  swaggerUi: string;
  redoc: string;
  /** A file of the pages' own assets (`/assets/{file}`). */
  asset(file: string): string;
  /** A file of Swagger UI's (`/docs/{file}`). */
  swaggerAsset(file: string): string;
  /** A file of ReDoc's (`/redoc/{file}`). */
  redocAsset(file: string): string;
  signInWith(provider: string): string;
  passwordSignIn: string;
}

export function pageLinksOf(pathTo: PathTo): PageLinks {
  return {
    apiDocument: pathTo('getApiDocument'),
    swaggerUi: pathTo('getSwaggerUi'),
    redoc: pathTo('getRedoc'),
    asset: (file) => pathTo('getPageAsset', { file }),
    swaggerAsset: (file) => pathTo('getSwaggerUiAsset', { file }),
    redocAsset: (file) => pathTo('getRedocAsset', { file }),
    signInWith: (provider) => pathTo('startOAuthSignIn', { provider }),
    passwordSignIn: pathTo('logIn'),
  };
}
