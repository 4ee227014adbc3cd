declare module 'legacy-config' {
  export interface Config {
    verbose: boolean;
  }
  export function load(path: string): Config;
  export function load(path: string, defaults: Partial<Config>): Config;
}

declare namespace NodeJS {
  interface ProcessEnv {
    APP_MODE?: 'dev' | 'prod';
  }
}
