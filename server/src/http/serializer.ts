// Answers are written by a serializer compiled once per route and status from the route's zod response
// schema (its JSON Schema, through fast-json-stringify, Fastify's own serializer), instead of running
// zod over every answer on the way out: on the plans list that was a sixth of the server's CPU per
// request, and it grows with the rows of a list. Like zod's, the compiled serializer writes only the
// properties the schema names, so a column a query reads and the contract does not name never leaves.
import fastJson from 'fast-json-stringify'
import type { FastifySerializerCompiler } from 'fastify/types/schema'
import { type ZodType, z } from 'zod'

type JsonSchema = Record<string, unknown>

const isObject = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * Objects accept properties they do not name (see below). And zod writes a nullable value as `anyOf: [X, { type: 'null' }]`, which fast-json-stringify answers by
 * validating each value against the branches; a simple X becomes `type: [X's type, 'null']`, written
 * directly. Everything else is left as zod wrote it.
 */
function simplify(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(simplify)
  if (!isObject(schema)) return schema
  const out: JsonSchema = {}
  for (const [key, value] of Object.entries(schema)) {
    // zod's objects strip what they do not name rather than refuse it; fast-json-stringify writes only
    // named properties either way, but picks a union's branch by validating, where `false` would
    // refuse a row that carries more columns than the branch names.
    if (key === 'additionalProperties' && value === false) continue
    out[key] = simplify(value)
  }
  const anyOf = out.anyOf
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const nullAt = anyOf.findIndex((s) => isObject(s) && s.type === 'null' && Object.keys(s).length === 1)
    const other = anyOf[1 - nullAt]
    if (nullAt >= 0 && isObject(other) && typeof other.type === 'string' && !('anyOf' in other)) {
      const { anyOf: _, ...rest } = out
      return { ...rest, ...other, type: [other.type, 'null'] }
    }
  }
  return out
}

/** A route's zod schema, as fastify-type-provider-zod accepts it (bare, or under `properties`). */
function zodOf(schema: unknown): ZodType | null {
  if (schema instanceof z.ZodType) return schema
  if (isObject(schema) && schema.properties instanceof z.ZodType) return schema.properties
  return null
}

/** The JSON Schema fast-json-stringify compiles for a zod response schema (exported for tests). */
export function responseJsonSchema(schema: ZodType): unknown {
  // 'any' for what JSON Schema cannot say (a transform's output, a date): written with JSON.stringify,
  // as zod's serializer writes them.
  return simplify(z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'any' }))
}

/**
 * A route's zod schema compiled through its JSON Schema; a plain JSON Schema, as Fastify compiles it.
 * Compiled at the route's first answer with that status, not as the route is added: Fastify asks for
 * every route's every status as the server starts, about 0.3 s of each start on a 2-core machine
 * (zod's JSON Schema and fast-json-stringify's code, for ~400 answers most of which a start never
 * sends); the first answer pays its own, a millisecond or two. tests/api/openapi.test.ts compiles
 * every one, so a schema that cannot be compiled still fails the suite, not an agent's first answer.
 */
export const serializerCompiler: FastifySerializerCompiler<unknown> = (route) => {
  let serialize: ((data: unknown) => string) | undefined
  return (data) => {
    serialize ??= compileSerializer(route.schema)
    return serialize(data)
  }
}

/** What serializerCompiler compiles for a route's response schema. */
export function compileSerializer(routeSchema: unknown): (data: unknown) => string {
  const schema = zodOf(routeSchema)
  return fastJson((schema ? responseJsonSchema(schema) : routeSchema) as never)
}
