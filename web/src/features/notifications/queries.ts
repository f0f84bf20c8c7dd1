import { NotificationSettings, PushSubscriptionView } from '@porchlight/shared'
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest } from '../../api/client.ts'

const subscriptionsKey = ['pushSubscriptions'] as const
const settingsKey = ['notificationSettings'] as const

export const pushPublicKeyQueryOptions = () =>
  queryOptions({
    queryKey: ['pushPublicKey'],
    queryFn: ({ signal }) =>
      apiRequest('/public/pushPublicKey', {
        schema: z.object({ publicKey: z.string().nullable() }),
        auth: false,
        signal,
      }),
    staleTime: Number.POSITIVE_INFINITY,
  })

export const pushSubscriptionsQueryOptions = () =>
  queryOptions({
    queryKey: subscriptionsKey,
    queryFn: ({ signal }) =>
      apiRequest('/notificationmgmt/getPushSubscriptions', { schema: z.array(PushSubscriptionView), signal }),
  })

export const notificationSettingsQueryOptions = () =>
  queryOptions({
    queryKey: settingsKey,
    queryFn: ({ signal }) =>
      apiRequest('/notificationmgmt/notificationSettings', { schema: NotificationSettings, signal }),
  })

export function useSaveNotificationSettings() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: z.input<typeof NotificationSettings>) =>
      apiRequest('/notificationmgmt/notificationSettings', {
        method: 'POST',
        body,
        schema: NotificationSettings,
      }),
    onSuccess: (saved) => queryClient.setQueryData(settingsKey, saved),
  })
}

export function useDeletePushSubscription() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: number) =>
      apiRequest(`/notificationmgmt/deletePushSubscription/${id}`, {
        method: 'DELETE',
        schema: z.object({ id: z.number() }),
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: subscriptionsKey }),
  })
}

export function useSubscribeThisBrowser() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (publicKey: string) => {
      const { subscribeThisBrowser } = await import('./push-browser.ts')
      const subscription = await subscribeThisBrowser(publicKey)
      return apiRequest('/notificationmgmt/savePushSubscription', {
        method: 'POST',
        body: subscription,
        schema: z.object({ id: z.number() }),
      })
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: subscriptionsKey }),
  })
}
