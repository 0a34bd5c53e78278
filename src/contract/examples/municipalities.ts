// Municipalities grouped by county.

export const MUNICIPALITIES_EXAMPLE = {
  data: [
    { countyCode: '03', countyName: 'Oslo', municipalities: [{ code: '0301', name: 'Oslo' }] },
    {
      countyCode: '11',
      countyName: 'Rogaland',
      municipalities: [
        { code: '1103', name: 'Stavanger' },
        { code: '1108', name: 'Sandnes' },
      ],
    },
  ],
};
