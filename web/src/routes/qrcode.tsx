import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { QrCodePage } from '../features/qrcode/qrcode-page.tsx'

/** SPEC /qrcode: a QR code for ?title= and ?value= (public: it only draws what it is given). */
export const Route = createFileRoute('/qrcode')({
  validateSearch: z.object({
    title: z.string().max(200).optional().catch(undefined),
    value: z.string().max(2000).optional().catch(undefined),
  }),
  component: QrCodePage,
})
