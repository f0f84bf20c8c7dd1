import { ApiError, errorMessage } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'

/**
 * Every reason a call failed, in the server's words: each field message of a 422 (API.md `errors`),
 * otherwise the one message SPEC §8 or `fallback` gives.
 */
export function errorMessages(error: unknown, fallback: string): string[] {
  if (error instanceof ApiError && error.fieldErrors.length > 0) {
    return [...new Set(error.fieldErrors.map((e) => e.message))]
  }
  return [errorMessage(error, fallback)]
}

/** An error alert that says what went wrong: one message as its title, several as a list. */
export function ErrorList({ error, title, fallback }: { error: unknown; title: string; fallback: string }) {
  const list = errorMessages(error, fallback)
  if (list.length === 1) return <Alert tone="error" title={list[0]} />
  return (
    <Alert tone="error" title={title}>
      <ul className="error-list">
        {list.map((message) => (
          <li key={message}>{message}</li>
        ))}
      </ul>
    </Alert>
  )
}
