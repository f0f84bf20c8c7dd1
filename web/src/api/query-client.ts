import { QueryClient } from '@tanstack/react-query'
import { ApiError } from './client.ts'

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        // Retrying cannot fix a 4xx answer; it can fix a dropped connection or a 5xx.
        retry: (failureCount, error) =>
          failureCount < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
      },
    },
  })
}
