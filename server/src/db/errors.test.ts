import { describe, expect, it } from 'vitest'
import { isConnectionLost } from './errors.ts'

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code })

describe('isConnectionLost', () => {
  it('names a server going away, not there yet, or a connection cut', () => {
    for (const err of [
      withCode('57P01', 'terminating connection due to administrator command'),
      withCode('57P02', 'terminating connection due to crash of another server process'),
      withCode('57P03', 'the database system is starting up'),
      withCode('08006', 'connection failure'),
      withCode('53300', 'sorry, too many clients already'),
      withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
      withCode('ECONNRESET', 'read ECONNRESET'),
      new Error('Connection terminated unexpectedly'),
      new Error('Client has encountered a connection error and is not queryable'),
      new Error('the transaction failed', { cause: withCode('57P01') }),
    ]) {
      expect(isConnectionLost(err), String(err)).toBe(true)
    }
  })

  it("leaves the statement's own failures to their own answers", () => {
    for (const err of [
      withCode('23505', 'duplicate key value violates unique constraint'),
      withCode('22P02', 'invalid input syntax for type bigint'),
      withCode('57014', 'canceling statement due to statement timeout'),
      withCode('40001', 'could not serialize access'),
      new Error('the transaction committed with its last statement'),
      'Connection terminated',
      null,
    ]) {
      expect(isConnectionLost(err), String(err)).toBe(false)
    }
  })
})
