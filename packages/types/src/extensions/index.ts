export {
  type Extension,
  ExtensionListSchema,
  ExtensionSchema,
  type LoadExtensionsForm,
  LoadExtensionsFormSchema,
  type LoadedExtensions,
  LoadedExtensionsSchema,
  MAX_EXTENSIONS_PER_LOAD,
  REQUIRED_MANIFEST_KEYS,
  type UploadExtensionForm,
  UploadExtensionFormSchema,
} from './extension.js';
export {
  deleteExtensionOperation,
  downloadExtensionOperation,
  ExtensionPathSchema,
  getExtensionMetadataOperation,
  listExtensionsOperation,
  loadExtensionsOperation,
  uploadExtensionOperation,
} from './operations.js';
