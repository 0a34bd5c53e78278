// A command given wrongly (unknown option, missing or bad value): the CLI prints the message and
// exits 1, and the operator endpoint reports it as the command's error line.
export class UsageError extends Error {}
