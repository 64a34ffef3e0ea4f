import type { enBrand } from './en-brand';

/** Svenska för kontorets varumärke (logotyp, accentfärg, förhandsvisning). */
export const svBrand: Record<keyof typeof enBrand, string> = {
  'brand.title': 'Varumärke: logotyp och färg',
  'brand.description':
    'Det parterna ser på signeringssidan, kontrollsidan, i mejlen och på den förseglade PDF:ens granskningssida: kontorets namn (under Allmänt), dess logotyp och dess accentfärg.',
  'brand.accent': 'Accentfärg',
  'brand.accentPicker': 'Välj accentfärg',
  'brand.accentHint': 'En färg #rrggbb. Vit text på den måste nå en kontrast på 4,5:1 (WCAG AA). Tomt: SignDesks egen.',
  'brand.accentContrast': 'Vit text på den: kontrast {ratio}:1.',
  'brand.accentTooPale':
    'Vit text på den har en kontrast på {ratio}:1; WCAG AA kräver minst 4,5:1. Välj en mörkare färg.',
  'brand.accentInvalid': 'Skriv färgen som #rrggbb, till exempel #1f4fd1.',
  'brand.logo': 'Logotyp',
  'brand.logoHint':
    'En PNG eller SVG på högst 512 KiB. SignDesk ritar om den till en PNG; en SVG med skript eller länkar till andra filer avvisas.',
  'brand.noLogo': 'Ingen logotyp: parterna ser kontorets namn.',
  'brand.logoAlt': 'Kontorets logotyp så som parterna ser den',
  'brand.logoSaved': 'Logotypen sparad.',
  'brand.removeLogo': 'Ta bort logotypen',
  'brand.preview': 'Förhandsvisning: överst på signeringssidan',
  'brand.previewDocument': 'Hyresavtal 2026.pdf',
  'brand.previewSign': 'Skriv under dokumentet',
  'brand.previewLink': 'Kontrollera en signerad PDF',
};
