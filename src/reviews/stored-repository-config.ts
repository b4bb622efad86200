import {
  defaultRepositoryConfig,
  type ParsedRepositoryConfig,
  type RepositoryConfig,
} from '../github/repository-config.js';

/**
 * The configuration an app review was started under, as stored on the review
 * (`{ config, errors }`); the defaults when there is none. It was validated when read from the
 * repository, so it is taken as it is, over the defaults (an older row may lack a newer option).
 */
export function storedRepositoryConfig(stored: unknown): ParsedRepositoryConfig {
  if (stored === null || typeof stored !== 'object') return { config: defaultRepositoryConfig(), errors: [] };
  const { config, errors } = stored as { config?: Partial<RepositoryConfig>; errors?: unknown };
  return {
    config: { ...defaultRepositoryConfig(), ...config },
    errors: Array.isArray(errors) ? errors.filter((e): e is string => typeof e === 'string') : [],
  };
}
