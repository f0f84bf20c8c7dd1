import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { GuestApp } from './guest-app.tsx'
import '../../ui/tokens.css'
import '../../ui/styles.css'
import './guest.css'

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')

createRoot(root).render(
  <StrictMode>
    <GuestApp />
  </StrictMode>,
)
