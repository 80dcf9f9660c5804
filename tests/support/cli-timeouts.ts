// Tests that run a command as a process of its own: tsx loads the server's modules (about 2.5 CPU-s
// apiece), some tests several times; 30 s was too little on a loaded two-core machine.
export const CLI_TEST_TIMEOUT_MS = 90_000;
