import { createFileRoute } from '@tanstack/react-router'
import { SellerReportPage } from '../features/seller-report/seller-report-page.tsx'

/** The seller's private report (issue 14): public, its token is the whole authority. */
export const Route = createFileRoute('/seller/$token')({
  component: SellerReportPage,
})
