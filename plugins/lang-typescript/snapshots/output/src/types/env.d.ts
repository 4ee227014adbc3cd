declare module 'legacy-config' {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition module "legacy-config" [1:0-7:1]
  export interface Config {
//^^^^^^^^^^^^^^^^^^^^^^^^^ definition interface "legacy-config".Config (to 4:3)
    verbose: boolean;
//  ^^^^^^^^^^^^^^^^^ definition property "legacy-config".Config.verbose
  }
  export function load(path: string): Config;
//^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function "legacy-config".load
  export function load(path: string, defaults: Partial<Config>): Config;
//^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function "legacy-config".load@overload1 (name load)
}

declare namespace NodeJS {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^ definition namespace NodeJS [9:0-13:1]
  interface ProcessEnv {
//^^^^^^^^^^^^^^^^^^^^^^ definition interface NodeJS.ProcessEnv (to 12:3)
    APP_MODE?: 'dev' | 'prod';
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^ definition property NodeJS.ProcessEnv.APP_MODE
  }
}
// ----- travsr snapshot: src/types/env.d.ts (typescript, phase A, status ok) -----
// node file <file> (env.d.ts)
// skeleton "legacy-config".Config.verbose: "verbose: boolean;"
// skeleton "legacy-config".Config: "export interface Config"
// skeleton "legacy-config".load: "export function load(path: string, defaults: Partial<Config>): Config;\nexport function load(path: string): Config;"
// skeleton "legacy-config".load@overload1: "export function load(path: string, defaults: Partial<Config>): Config;"
// skeleton "legacy-config": "declare module 'legacy-config'"
// skeleton NodeJS.ProcessEnv.APP_MODE: "APP_MODE?: 'dev' | 'prod';"
// skeleton NodeJS.ProcessEnv: "interface ProcessEnv"
// skeleton NodeJS: "declare namespace NodeJS"
// edge contains "legacy-config" -> "legacy-config".Config (confidence 1, phase-a)
// edge contains "legacy-config" -> "legacy-config".load (confidence 1, phase-a)
// edge contains "legacy-config" -> "legacy-config".load@overload1 (confidence 1, phase-a)
// edge contains "legacy-config".Config -> "legacy-config".Config.verbose (confidence 1, phase-a)
// edge contains <file> -> "legacy-config" (confidence 1, phase-a)
// edge contains <file> -> NodeJS (confidence 1, phase-a)
// edge contains NodeJS -> NodeJS.ProcessEnv (confidence 1, phase-a)
// edge contains NodeJS.ProcessEnv -> NodeJS.ProcessEnv.APP_MODE (confidence 1, phase-a)
