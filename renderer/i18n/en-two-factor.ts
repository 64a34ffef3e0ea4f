/** English of two-factor sign-in (authenticator app). Part of `en`. */
export const enTwoFactor = {
  'nav.account': 'Your sign-in',
  'account.title': 'Your sign-in',
  'account.description': 'How you sign in to SignDesk.',
  'twoFactor.title': 'Two-factor sign-in',
  'twoFactor.description':
    'After your password, SignDesk asks for a six-digit code from an authenticator app on your phone (Microsoft Authenticator, Google Authenticator, 1Password, …).',
  'twoFactor.on': 'On since {time}. Recovery codes left: {n}.',
  'twoFactor.off': 'Off: your password alone signs you in.',
  'twoFactor.required': 'The office requires two-factor sign-in of everyone.',
  'twoFactor.setUp': 'Set up an authenticator app',
  'twoFactor.scan': 'Scan this QR code with the authenticator app, then type the code it shows.',
  'twoFactor.qrAlt': 'QR code for the authenticator app',
  'twoFactor.secret': 'Cannot scan? Type this key into the app instead:',
  'twoFactor.code': 'Code from the app',
  'twoFactor.turnOn': 'Turn on',
  'twoFactor.turnOff': 'Turn off two-factor sign-in',
  'twoFactor.turnOffHint': 'Confirm with your password.',
  'twoFactor.turnedOff': 'Two-factor sign-in is off.',
  'twoFactor.codesTitle': 'Your recovery codes',
  'twoFactor.codesLead':
    'Each code signs you in once without the app, if you lose your phone. Keep them somewhere safe: they are shown only now.',
  'twoFactor.codesSaved': 'I have saved them',
  'twoFactor.copyCodes': 'Copy the recovery codes',
  'signIn.codeTitle': 'Enter your code',
  'signIn.codeLead':
    'Open your authenticator app and type the six-digit code for SignDesk, or one of your recovery codes.',
  'signIn.codeField': 'Code',
  'signIn.enrolTitle': 'Set up two-factor sign-in',
  'signIn.enrolLead':
    'The office requires a second factor of everyone. Set up an authenticator app on your phone to continue.',
  'signIn.startOver': 'Sign in again',
  'settings.signIn': 'Staff sign-in',
  'settings.signInDescription': 'How the office’s staff sign in to the admin UI. API keys are not affected.',
  'settings.requireTwoFactors': 'Require two-factor sign-in of everyone',
  'settings.requireTwoFactorsHint':
    'Staff without an authenticator app set one up at their next sign-in. Sessions already open stay open.',
} as const;
