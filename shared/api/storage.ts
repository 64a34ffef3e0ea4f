import { z } from 'zod';

export const ZStorageSchema = z
  .object({
    data_folder: z
      .string()
      .meta({ description: 'The data folder (DATA_DIR): the database, the stored PDFs and the keys' }),
    free_bytes: z
      .number()
      .int()
      .min(0)
      .meta({ description: 'Free space on the disk that holds the data folder, as this account may use it' }),
    total_bytes: z.number().int().min(0).meta({ description: 'The size of that disk' }),
    low_below_bytes: z
      .number()
      .int()
      .min(0)
      .meta({ description: 'Below this much free space the disk counts as low (LOW_DISK_MB; 0: never)' }),
    is_low: z.boolean().meta({
      description:
        'Free space is below low_below_bytes: once the disk is full nothing new can be saved (507), so free space or move the data folder to a larger disk.',
    }),
  })
  .meta({ id: 'Storage' });

export type TStorage = z.infer<typeof ZStorageSchema>;
