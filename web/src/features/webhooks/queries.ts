import {
  CreatedWebhookEndpoint,
  FubConnector,
  type SaveFubConnectorBody,
  type SaveWebhookEndpointBody,
  WebhookDelivery,
  WebhookEndpoint,
} from '@porchlight/shared'
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest } from '../../api/client.ts'

const endpointsKey = (agentId: number) => ['webhookEndpoints', agentId] as const
const deliveriesKey = (endpointId: number) => ['webhookDeliveries', endpointId] as const
const fubKey = ['fubConnector'] as const

export const webhookEndpointsQueryOptions = (agentId: number) =>
  queryOptions({
    queryKey: endpointsKey(agentId),
    queryFn: ({ signal }) =>
      apiRequest(`/webhookmgmt/getWebhookEndpointsByREAgentId/${agentId}`, {
        schema: z.array(WebhookEndpoint),
        signal,
      }),
  })

/** The delivery log: asked again every two seconds while a delivery is still on its way. */
export const webhookDeliveriesQueryOptions = (endpointId: number) =>
  queryOptions({
    queryKey: deliveriesKey(endpointId),
    queryFn: ({ signal }) =>
      apiRequest(`/webhookmgmt/getWebhookDeliveries/${endpointId}?limit=50`, {
        schema: z.array(WebhookDelivery),
        signal,
      }),
    refetchInterval: (query) =>
      query.state.data?.some((d) => d.status === 'pending' || d.status === 'sending') ? 2000 : false,
  })

export const fubConnectorQueryOptions = () =>
  queryOptions({
    queryKey: fubKey,
    queryFn: ({ signal }) => apiRequest('/webhookmgmt/getFubConnector', { schema: FubConnector, signal }),
  })

export function useSaveWebhookEndpoint(agentId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: SaveWebhookEndpointBody) =>
      apiRequest('/webhookmgmt/saveWebhookEndpoint', {
        method: 'POST',
        body,
        schema: CreatedWebhookEndpoint,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: endpointsKey(agentId) }),
  })
}

export function useDeleteWebhookEndpoint(agentId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (endpointId: number) =>
      apiRequest(`/webhookmgmt/deleteWebhookEndpoint/${endpointId}`, {
        method: 'DELETE',
        schema: z.object({ id: z.number() }),
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: endpointsKey(agentId) }),
  })
}

/** Send test event and Replay both add to the log; the endpoint's state may change with the answer. */
function useLogAction(endpointId: number, agentId: number, path: (id: number) => string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: number) => apiRequest(path(id), { method: 'POST', schema: WebhookDelivery }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: deliveriesKey(endpointId) }),
        queryClient.invalidateQueries({ queryKey: endpointsKey(agentId) }),
      ]),
  })
}

export const useSendTestEvent = (endpointId: number, agentId: number) =>
  useLogAction(endpointId, agentId, (id) => `/webhookmgmt/sendWebhookTestEvent/${id}`)

export const useReplayDelivery = (endpointId: number, agentId: number) =>
  useLogAction(endpointId, agentId, (id) => `/webhookmgmt/replayWebhookDelivery/${id}`)

export function useSaveFubConnector() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: SaveFubConnectorBody) =>
      apiRequest('/webhookmgmt/saveFubConnector', { method: 'POST', body, schema: FubConnector }),
    onSuccess: (data) => queryClient.setQueryData(fubKey, data),
  })
}

export function useDeleteFubConnector() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () =>
      apiRequest('/webhookmgmt/deleteFubConnector', { method: 'DELETE', schema: FubConnector }),
    onSuccess: (data) => queryClient.setQueryData(fubKey, data),
  })
}

/** Sends every lead waiting for Follow Up Boss once, now (after a new key, or when it answers again). */
export function useRetryFubConnector() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => apiRequest('/webhookmgmt/retryFubConnector', { method: 'POST', schema: FubConnector }),
    onSuccess: (data) => queryClient.setQueryData(fubKey, data),
  })
}
