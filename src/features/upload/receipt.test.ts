import { describe, expect, it } from 'vitest';
import { receiptFileName, receiptText } from './receipt.ts';

describe('receipt', () => {
  const date = new Date(2030, 0, 2, 3, 4, 5);

  it('is named Upload_Receipt_Cumulative_{timestamp}.txt', () => {
    expect(receiptFileName(date)).toBe('Upload_Receipt_Cumulative_2030-01-02_03-04-05.txt');
  });

  it('lists every confirmed file with its folder and size in MB, and the total', () => {
    const text = receiptText(
      [
        { name: 'a.pdf', relativePath: '.', size: 1_572_864, uploadedAt: '' },
        { name: 'Grüße "x".txt', relativePath: 'Project/2025', size: 10, uploadedAt: '' },
      ],
      'Tax documents',
      date,
    );
    expect(text).toContain('Folder: Tax documents');
    expect(text).toContain(`Generated on: ${date.toLocaleString()}`);
    expect(text).toContain('1. a.pdf (1.50 MB)\n2. Project/2025/Grüße "x".txt (0.00 MB)');
    expect(text).toMatch(/Total files: 2\n$/);
  });
});
