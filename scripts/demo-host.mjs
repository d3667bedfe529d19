// The demo's accounts have a published password, so it listens on this machine only unless
// `--public` asks for every interface.
export function demoHost(argv) {
  return argv.includes('--public') ? '0.0.0.0' : '127.0.0.1';
}
