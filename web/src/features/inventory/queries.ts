import {
  AddressSuggestion,
  InventoryItem,
  Property,
  type PropertyBody,
  type SaveInventoryBody,
  type UpdateInventoryBody,
} from '@porchlight/shared'
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest } from '../../api/client.ts'
import { orNotFound, retryUnlessMissing } from '../../api/not-found.ts'

const inventoryKeys = {
  list: (agentId: number) => ['inventory', agentId] as const,
  item: (id: number) => ['inventoryItem', id] as const,
}

/** The agent's inventory items that may still get an open house (API.md). */
export function inventoryQueryOptions(agentId: number) {
  return queryOptions({
    queryKey: inventoryKeys.list(agentId),
    queryFn: ({ signal }) =>
      apiRequest(`/reinventorymgmt/getOHEligibleREInventoryByOwningREAgentId/${agentId}`, {
        schema: z.array(InventoryItem),
        signal,
      }),
  })
}

/** One of the agent's inventory items; another agent's answers 404, shown as the not-found page. */
export function inventoryItemQueryOptions(id: number) {
  return queryOptions({
    queryKey: inventoryKeys.item(id),
    queryFn: ({ signal }) =>
      orNotFound(
        apiRequest(`/reinventorymgmt/getREInventoryDetails/${id}`, { schema: InventoryItem, signal }),
      ),
    retry: retryUnlessMissing,
  })
}

function useAfterInventoryChange(agentId: number) {
  const queryClient = useQueryClient()
  return (item?: InventoryItem) => {
    if (item) queryClient.setQueryData(inventoryKeys.item(item.id), item)
    void queryClient.invalidateQueries({ queryKey: inventoryKeys.list(agentId) })
  }
}

export function useCreateInventoryMutation(agentId: number) {
  const after = useAfterInventoryChange(agentId)
  return useMutation({
    mutationFn: (body: SaveInventoryBody) =>
      apiRequest('/reinventorymgmt/saveREInventory', { method: 'POST', body, schema: InventoryItem }),
    onSuccess: after,
  })
}

/**
 * POST saveREProperty: a property in nobody's inventory yet. A Team Lead or Admin Team Member adds the
 * house this way; it joins the inventory of the listing agent it is scheduled for.
 */
export function useCreatePropertyMutation() {
  return useMutation({
    mutationFn: (body: PropertyBody) =>
      apiRequest('/propertymgmt/saveREProperty', { method: 'POST', body, schema: Property }),
  })
}

export function useUpdateInventoryMutation(agentId: number, id: number) {
  const after = useAfterInventoryChange(agentId)
  return useMutation({
    mutationFn: (body: UpdateInventoryBody) =>
      apiRequest(`/reinventorymgmt/saveREInventory/${id}`, { method: 'PATCH', body, schema: InventoryItem }),
    onSuccess: after,
  })
}

export function useDeleteInventoryMutation(agentId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: number) =>
      apiRequest(`/reinventorymgmt/deleteREInventory/${id}`, {
        method: 'DELETE',
        schema: z.object({ deleted: z.literal(true), message: z.string() }),
      }),
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<InventoryItem[]>(inventoryKeys.list(agentId), (items) =>
        items?.filter((item) => item.id !== id),
      )
      queryClient.removeQueries({ queryKey: inventoryKeys.item(id) })
      void queryClient.invalidateQueries({ queryKey: inventoryKeys.list(agentId) })
    },
  })
}

const Suggestions = z.object({ data: z.array(AddressSuggestion), configured: z.boolean() })
export type AddressSearch = z.infer<typeof Suggestions>

/** Address autocomplete (US and CA); `configured: false` means there is none and manual entry is all. */
export function addressSearchQueryOptions(q: string) {
  return queryOptions({
    queryKey: ['addressSearch', q],
    queryFn: ({ signal }) =>
      apiRequest(`/geocoder/search?q=${encodeURIComponent(q)}`, {
        schema: Suggestions,
        envelope: true,
        signal,
      }),
    enabled: q.trim().length >= 3,
    staleTime: 5 * 60_000,
    retry: false,
  })
}

/** A property the agent owns (or one on show); any other answers 404, shown as the not-found page. */
export function propertyQueryOptions(id: number) {
  return queryOptions({
    queryKey: ['property', id],
    queryFn: ({ signal }) =>
      orNotFound(apiRequest(`/propertymgmt/getREPropertyDetails/${id}`, { schema: Property, signal })),
    retry: retryUnlessMissing,
  })
}
