import { useQuery } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest } from '../../api/client.ts'

const AppConfig = z.object({ mapStyleUrl: z.string().nullable() })

/**
 * The server's MAP_STYLE_URL (SPEC §7: the map's key comes from configuration). Maps are on only with
 * one: `undefined` while the answer is on its way, then the URL or null (maps off: lists of addresses).
 */
export function useMapStyleUrl(): string | null | undefined {
  const config = useQuery({
    queryKey: ['public', 'appConfig'],
    queryFn: () => apiRequest('/public/appConfig', { schema: AppConfig, auth: false }),
    staleTime: Number.POSITIVE_INFINITY,
  })
  if (config.isError) return null
  return config.data ? config.data.mapStyleUrl : undefined
}
