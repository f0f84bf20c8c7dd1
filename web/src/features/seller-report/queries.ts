import {
  SellerReport,
  SellerReportLink,
  SellerReportLinkStatus,
} from '@porchlight/shared/schemas/seller-report'
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { z } from 'zod'
import { ApiError, apiRequest } from '../../api/client.ts'

export const sellerReportQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ['sellerReport', token],
    queryFn: ({ signal }) =>
      apiRequest(`/public/getSellerReport/${encodeURIComponent(token)}`, {
        schema: SellerReport,
        auth: false,
        signal,
      }),
    // A revoked or expired link stays gone; anything else is retried as usual.
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 2,
  })

/**
 * Keeps the seller's report current without a reload: its own socket (auth `{sellerToken}`) hears only
 * that the report changed and refetches it; a reconnect refetches too, as an event may have been missed.
 */
export function useSellerReportLive(token: string, enabled: boolean) {
  const queryClient = useQueryClient()
  useEffect(() => {
    if (!enabled) return
    let closed = false
    let disconnect = () => {}
    const refetch = () => void queryClient.invalidateQueries({ queryKey: ['sellerReport', token] })
    void import('socket.io-client').then(({ io }) => {
      if (closed) return
      const socket = io({ path: '/socket.io', auth: { sellerToken: token }, transports: ['websocket'] })
      socket.on('sellerReport.changed', refetch)
      socket.io.on('reconnect', refetch)
      // Revoking the link ends the socket from the server: the refetch then shows the link is gone.
      socket.on('disconnect', (reason) => {
        if (reason === 'io server disconnect') refetch()
      })
      disconnect = () => socket.disconnect()
    })
    return () => {
      closed = true
      disconnect()
    }
  }, [token, enabled, queryClient])
}

export const sellerLinkStatusQueryOptions = (openHouseId: number) =>
  queryOptions({
    queryKey: ['sellerReportLink', openHouseId],
    queryFn: ({ signal }) =>
      apiRequest(`/openhousemgmt/getSellerReportLink/${openHouseId}`, {
        schema: SellerReportLinkStatus,
        signal,
      }),
  })

export function useCreateSellerLink(openHouseId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (expiresInDays: number) =>
      apiRequest(`/openhousemgmt/createSellerReportLink/${openHouseId}`, {
        method: 'POST',
        body: { expiresInDays },
        schema: SellerReportLink,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['sellerReportLink', openHouseId] }),
  })
}

/** The seller's email on the newest working link (decision 051), or null to remove it. */
export function useSetSellerEmail(openHouseId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (sellerEmail: string | null) =>
      apiRequest(`/openhousemgmt/setSellerReportEmail/${openHouseId}`, {
        method: 'POST',
        body: { sellerEmail },
        schema: SellerReportLinkStatus,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['sellerReportLink', openHouseId] }),
  })
}

export function useRevokeSellerLinks(openHouseId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () =>
      apiRequest(`/openhousemgmt/revokeSellerReportLink/${openHouseId}`, {
        method: 'DELETE',
        schema: z.object({ revoked: z.number() }),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['sellerReportLink', openHouseId] }),
  })
}
