/** Porchlight's mark: a house with its porch light on (the site header, the door sign). */
export function BrandMark({ className }: { className: string }) {
  return (
    <svg className={className} viewBox="0 0 32 32" aria-hidden="true">
      <rect width="32" height="32" rx="8" fill="var(--slate-900)" />
      <path
        d="M8 15.5 16 8l8 7.5V24H8z"
        fill="none"
        stroke="var(--slate-50)"
        strokeWidth="2"
        strokeLinejoin="round"
      />
      <circle cx="16" cy="18.5" r="3" fill="var(--amber-500)" />
    </svg>
  )
}
