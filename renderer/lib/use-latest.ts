import { useLayoutEffect, useRef, type RefObject } from 'react';

/**
 * A ref that holds the newest `value` once each render is committed: for effects and timers
 * that outlive the render that started them (a load begun before the props changed) and must
 * call the current callback without starting again when it changes.
 */
export function useLatest<T>(value: T): RefObject<T> {
  const ref = useRef(value);
  useLayoutEffect(() => {
    ref.current = value;
  });
  return ref;
}
