import { useCanGoBack, useNavigate, useRouter } from '@tanstack/react-router'

/** SPEC "Cancel = back": the previous page, or `fallback` when this page was opened directly. */
export function useGoBack(fallback: '/openhouses' | '/dashboard' | '/reinventory') {
  const router = useRouter()
  const canGoBack = useCanGoBack()
  const navigate = useNavigate()
  return () => {
    if (canGoBack) router.history.back()
    else void navigate({ to: fallback })
  }
}
