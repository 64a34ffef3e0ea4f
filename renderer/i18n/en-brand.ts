/** English of the office's brand settings (logo, accent, preview). Part of `en`. */
export const enBrand = {
  'brand.title': 'Brand: logo and colour',
  'brand.description':
    'What parties see on the signing page, the verify page, the mails and the sealed PDF’s audit page: the office’s name (under General), its logo and its accent colour.',
  'brand.accent': 'Accent colour',
  'brand.accentPicker': 'Pick the accent colour',
  'brand.accentHint':
    'A colour #rrggbb. White text on it must reach a contrast of 4.5:1 (WCAG AA). Empty: SignDesk’s own.',
  'brand.accentContrast': 'White text on it: contrast {ratio}:1.',
  'brand.accentTooPale':
    'White text on it has a contrast of {ratio}:1; WCAG AA needs at least 4.5:1. Choose a darker colour.',
  'brand.accentInvalid': 'Write the colour as #rrggbb, such as #1f4fd1.',
  'brand.logo': 'Logo',
  'brand.logoHint':
    'A PNG or an SVG of at most 512 KiB. SignDesk draws it afresh into a PNG; an SVG with a script or links to other files is refused.',
  'brand.noLogo': 'No logo: parties see the office’s name.',
  'brand.logoAlt': 'The office’s logo as parties see it',
  'brand.logoSaved': 'Logo saved.',
  'brand.removeLogo': 'Remove logo',
  'brand.preview': 'Preview: the top of the signing page',
  'brand.previewDocument': 'Lease agreement 2026.pdf',
  'brand.previewSign': 'Sign the document',
  'brand.previewLink': 'Verify a signed PDF',
};
