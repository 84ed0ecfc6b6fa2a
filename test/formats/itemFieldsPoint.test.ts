/**
 * The point of an item (docs/search.md "Geography"): the view's latitude and longitude, else
 * the first EDM place with both that is not where the object is kept; invalid coordinates
 * are no point.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { itemFields } from '../../src/formats/itemFields.js';

const pkg = (item: Record<string, unknown>, places: unknown[], cho: Record<string, unknown> = {}) => ({
  properties: { 'item-id': 'P' },
  view: { item },
  edm: { RDF: { ProvidedCHO: cho, Place: places } },
});
const pointOf = (p: unknown) => {
  const { latitude, longitude } = itemFields(p).result;
  return [latitude, longitude];
};

test("the view's coordinates come first; then the first EDM place with both, not the object's current location", () => {
  assert.deepEqual(pointOf(pkg({ latitude: '52.52', longitude: '13.405' }, [{ lat: '1', long: '2' }])), ['52.52', '13.405']);
  const places = [
    { '@about': 'http://sws.geonames.org/2918632/', lat: '51.54', long: '9.93' }, // kept there
    { '@about': 'http://sws.geonames.org/x', lat: '48.1', long: null },
    { about: 'http://sws.geonames.org/2950159/', lat: '52.52437', long: '13.41053' },
  ];
  const cho = { currentLocation: { '@resource': 'http://sws.geonames.org/2918632/' } };
  assert.deepEqual(pointOf(pkg({ latitude: '', longitude: '' }, places, cho)), ['52.52437', '13.41053']);
  // The older JSON writes text beside attributes as {$}.
  assert.deepEqual(pointOf(pkg({}, [{ '@about': 'a', lat: { $: ' -33.9 ' }, long: { $: '151.2' } }])), ['-33.9', '151.2']);
});

test('coordinates out of range or not decimal degrees are no point, and neither half is kept alone', () => {
  for (const [lat, long] of [
    ['91', '10'],
    ['10', '180.5'],
    ['52,5', '13,4'],
    ['N 52', '13'],
    ['1e1', '2'],
    ['', '13'],
  ]) {
    assert.deepEqual(pointOf(pkg({ latitude: lat, longitude: long }, [])), ['', ''], `${lat} ${long}`);
  }
});
