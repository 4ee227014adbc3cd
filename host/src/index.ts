/** The Travsr host as a library: what the CLI is built from. */
export {};
