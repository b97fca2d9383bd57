/** The run cannot start as asked (a --resume id that cannot be used, a cycle branch as base): exit 2. */
export class StartError extends Error {}
