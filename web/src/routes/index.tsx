import { createFileRoute } from '@tanstack/react-router'
import { Landing } from '../features/landing/landing.tsx'

export const Route = createFileRoute('/')({
  component: Landing,
})
