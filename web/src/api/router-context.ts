import type { QueryClient } from '@tanstack/react-query'

/** What every route's loader and beforeLoad receive as `context`. */
export interface RouterContext {
  queryClient: QueryClient
}
