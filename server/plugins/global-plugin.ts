// Marks a plugin as non-encapsulated, so its decorators and hooks apply to the whole app. This is
// what the `fastify-plugin` package does (minus its version check); two symbols are not worth a
// dependency.
import type { FastifyPluginAsync } from 'fastify';

export function globalPlugin<Options extends Record<string, unknown> = Record<never, never>>(
  name: string,
  plugin: FastifyPluginAsync<Options>,
): FastifyPluginAsync<Options> {
  return Object.assign(plugin, {
    [Symbol.for('skip-override')]: true,
    [Symbol.for('fastify.display-name')]: name,
  });
}
