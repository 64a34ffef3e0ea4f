import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';

/**
 * Which parts of the API this server has, read from its OpenAPI document: pages whose API is
 * not there yet say so instead of failing.
 */
export type Features = {
  contracts: boolean;
  templatePreview: boolean;
  webhooks: boolean;
  outbox: boolean;
  messaging: boolean;
  isKnown: boolean;
};

const NONE: Features = { contracts: false, templatePreview: false, webhooks: false, outbox: false, messaging: false, isKnown: false };

const FeaturesContext = createContext<Features>(NONE);

export function FeaturesProvider({ children }: { children: ReactNode }) {
  const [features, setFeatures] = useState<Features>(NONE);
  useEffect(() => {
    let isCurrent = true;
    fetch('/api/openapi.json', { credentials: 'same-origin' })
      .then((response) => response.json() as Promise<{ paths?: Record<string, unknown> }>)
      .then((document) => {
        const paths = new Set(Object.keys(document.paths ?? {}));
        if (!isCurrent) return;
        setFeatures({
          contracts: paths.has('/api/contracts'),
          templatePreview: paths.has('/api/contract_templates/{template_id}/pdf_preview'),
          webhooks: paths.has('/api/webhooks'),
          outbox: paths.has('/api/outbox'),
          messaging: paths.has('/api/settings/messaging'),
          isKnown: true,
        });
      })
      .catch(() => isCurrent && setFeatures({ ...NONE, isKnown: true }));
    return () => {
      isCurrent = false;
    };
  }, []);
  return <FeaturesContext.Provider value={features}>{children}</FeaturesContext.Provider>;
}

export const useFeatures = () => useContext(FeaturesContext);
