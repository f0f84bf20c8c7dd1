import { useEffect } from 'react'

/** Sets the tab title, which screen readers also announce after a client-side navigation. */
export function useDocumentTitle(title: string) {
  useEffect(() => {
    document.title = title === 'Porchlight' ? title : `${title} · Porchlight`
  }, [title])
}
