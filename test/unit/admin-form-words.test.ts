import { describe, expect, it } from 'vitest';
import { isDateText, joinTimestamp, splitTimestamp } from '../../renderer/lib/date-input';
import { bannerLines, readableErrors, readableMessage } from '../../renderer/lib/problem-lines';

const labels = {
  fields: { email: 'E-mail', delivery_method: 'Delivery', office_name: 'Office name' },
  values: { EMAIL: 'E-mail', EMAIL_AND_SMS: 'E-mail and SMS' },
};

describe('validation problems in the form’s words', () => {
  it('replaces field names and codes, whole words only', () => {
    expect(readableMessage('is required when delivery_method is EMAIL_AND_SMS', labels)).toBe(
      'is required when Delivery is E-mail and SMS',
    );
    expect(readableMessage('emails: must be EMAILS', labels)).toBe('emails: must be EMAILS');
    expect(readableMessage('see parties.3.email', labels)).toBe('see parties.3.email');
  });

  it('says each field once, and leaves the fields shown beside their controls to them', () => {
    const lines = [
      'email: is required when delivery_method is EMAIL',
      'email: must be an e-mail address',
      'mobile_phone: is required',
      'something odd',
    ];
    expect(bannerLines(lines, labels)).toEqual([
      { field: 'mobile_phone', text: 'mobile_phone: is required' },
      { field: undefined, text: 'something odd' },
    ]);
    expect(bannerLines(lines, undefined).map((line) => line.text)).toEqual(
      lines.filter((line) => line !== 'email: must be an e-mail address'),
    );
    expect(readableErrors({ email: 'is required when delivery_method is EMAIL' }, labels)).toEqual({
      email: 'is required when Delivery is E-mail',
    });
  });
});

describe('YYYY-MM-DD dates and 24-hour times', () => {
  it('accepts real calendar dates only', () => {
    expect(['2026-12-31', '2028-02-29'].map(isDateText)).toEqual([true, true]);
    expect(['2026-02-29', '2026-13-01', '12/31/2026', '2026-1-1', ''].map(isDateText)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('joins a date and a time into an API timestamp, the end of the day when no time is given', () => {
    expect(joinTimestamp('2026-12-31', '')).toEqual({ value: '2026-12-31 23:59:00' });
    expect(joinTimestamp(' 2026-12-31 ', '07:05')).toEqual({ value: '2026-12-31 07:05:00' });
    expect(joinTimestamp('', '')).toEqual({ value: null });
    expect(joinTimestamp('31/12/2026', '')).toEqual({ problem: 'date' });
    expect(joinTimestamp('2026-12-31', '24:00')).toEqual({ problem: 'time' });
    expect(joinTimestamp('2026-12-31', '5 pm')).toEqual({ problem: 'time' });
    expect(splitTimestamp('2026-12-31 17:30:00')).toEqual({ date: '2026-12-31', time: '17:30' });
    expect(splitTimestamp(null)).toEqual({ date: '', time: '' });
  });
});
