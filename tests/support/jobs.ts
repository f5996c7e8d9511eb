/** A listing's conditions as the job pages read them: full-time in Tokyo, a yearly salary range. */
export const JOB_CONDITIONS = {
  employmentType: ['正社員'],
  prefecture: ['東京都'],
  remote: ['出社'],
  location: '渋谷区神宮前',
  salaryUnit: ['年収'],
  salaryMin: 4_200_000,
  salaryMax: 6_500_000,
};
