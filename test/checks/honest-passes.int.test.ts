import { describe, expect, it } from 'vitest';
import { certify } from '../support/certify.js';

/** A ✓ says what was checked (issue 34): never a claim its own warning, or the run's settings, contradict. */
describe('a pass says what was checked', () => {
  it('metadata: with an unusable catalog, the pass does not claim certificationInput refers to catalog ids', async () => {
    const { report } = await certify({ faults: ['catalog-wrong-type'], only: ['metadata', 'catalog'] });
    const metadata = report.checks.find((c) => c.id === 'metadata');
    expect(metadata?.status).toBe('pass');
    expect(metadata?.warnings?.join('\n')).toMatch(/certificationInput was not checked against the catalog/);
    expect(metadata?.message).toMatch(/certificationInput not checked \(the catalog is unusable: see catalog\)$/);
    expect(metadata?.message).not.toContain('refers to catalog ids');
  });

  it('metadata: with a usable catalog and locations it says the input refers to catalog ids and a listed location', async () => {
    const { report } = await certify({ only: ['metadata'] });
    const metadata = report.checks.find((c) => c.id === 'metadata');
    expect(metadata?.status).toBe('pass');
    expect(metadata?.message).toMatch(/certificationInput refers to catalog ids and a location GET \/locations lists$/);
    expect(metadata?.warnings ?? []).toEqual([]);
  });

  it('metadata: with unusable locations, the pass does not claim the input names a listed location', async () => {
    const { report } = await certify({ faults: ['location-missing-address'], only: ['metadata', 'locations'] });
    const metadata = report.checks.find((c) => c.id === 'metadata');
    expect(metadata?.status).toBe('pass');
    expect(metadata?.warnings?.join('\n')).toMatch(
      /certificationInput\.locationId "loc-downtown" was not checked against GET \/locations, which is unusable: GET \/locations does not match the schema/,
    );
    expect(metadata?.message).toMatch(/certificationInput refers to catalog ids$/);
  });

  it('base-url: a local http run passes without its title or message claiming public HTTPS', async () => {
    const { report } = await certify({ only: ['base-url'] });
    const baseUrl = report.checks.find((c) => c.id === 'base-url');
    expect(baseUrl?.status).toBe('pass');
    expect(report.provider.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:/);
    expect(baseUrl?.title).not.toMatch(/is public HTTPS/);
    expect(baseUrl?.title).toBe(
      'Base address reaches the provider API (public HTTPS required unless the run is local)',
    );
    expect(baseUrl?.message).toMatch(/is allowed for a local run and reaches the provider API/);
  });
});
