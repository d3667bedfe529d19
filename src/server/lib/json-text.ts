import type { FastifyReply } from 'fastify';

/**
 * Sends JSON text that the database built in the shape of the route's response schema. Fastify
 * sends a string as it is, without the route's serializer, so the route's tests must hold the
 * text to the schema (`Schema.strict().parse(body)`).
 */
export function sendJsonText(reply: FastifyReply, text: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(text);
}
