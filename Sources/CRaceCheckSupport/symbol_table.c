/* The names in the executable's own symbol table, which the dynamic one leaves out, demangled. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <elf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <fcntl.h>
#include <link.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "CRaceCheckSupport.h"

/* The Swift runtime's demangler: a malloc'ed string when `output` is NULL, or NULL. */
char *swift_demangle(
    const char *mangled, size_t length, char *output, size_t *output_size, uint32_t flags);

/* The executable's load bias: what its symbols' values are relative to. */
static int note_bias(struct dl_phdr_info *info, size_t size, void *bias) {
  (void)size;
  *(uintptr_t *)bias = info->dlpi_addr;
  return 1; /* The first object is the executable. */
}

/* Calls `visit` with every symbol of the executable's own symbol table and its load bias;
 * returns -1 when the executable or its table cannot be read, else 0. */
static int each_executable_symbol(
    void (*visit)(const ElfW(Sym) *symbol, const char *name, uintptr_t bias, void *context),
    void *context) {
  uintptr_t bias = 0;
  dl_iterate_phdr(note_bias, &bias);
  int file = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
  if (file < 0) return -1;
  struct stat status;
  if (fstat(file, &status) != 0 || (size_t)status.st_size < sizeof(ElfW(Ehdr))) {
    close(file);
    return -1;
  }
  size_t size = (size_t)status.st_size;
  const unsigned char *image = mmap(NULL, size, PROT_READ, MAP_PRIVATE, file, 0);
  close(file);
  if (image == MAP_FAILED) return -1;
  const ElfW(Ehdr) *header = (const ElfW(Ehdr) *)image;
  int found = -1;
  if (memcmp(header->e_ident, ELFMAG, SELFMAG) == 0 && header->e_shoff != 0
      && header->e_shoff + (size_t)header->e_shnum * sizeof(ElfW(Shdr)) <= size) {
    const ElfW(Shdr) *sections = (const ElfW(Shdr) *)(image + header->e_shoff);
    for (int i = 0; i < header->e_shnum; i++) {
      if (sections[i].sh_type != SHT_SYMTAB || sections[i].sh_link >= header->e_shnum) continue;
      const ElfW(Shdr) *names = &sections[sections[i].sh_link];
      if (sections[i].sh_offset + sections[i].sh_size > size
          || names->sh_offset + names->sh_size > size || names->sh_size == 0) {
        continue;
      }
      const ElfW(Sym) *symbols = (const ElfW(Sym) *)(image + sections[i].sh_offset);
      const char *strings = (const char *)(image + names->sh_offset);
      size_t count = sections[i].sh_size / sizeof(ElfW(Sym));
      found = 0;
      for (size_t s = 0; s < count; s++) {
        /* The string table ends in a zero byte, so every name within it is terminated. */
        if (symbols[s].st_name >= names->sh_size || strings[names->sh_size - 1] != 0) continue;
        visit(&symbols[s], strings + symbols[s].st_name, bias, context);
      }
    }
  }
  munmap((void *)image, size);
  return found;
}

typedef struct {
  const char *needle;
  void (*each)(const char *name, uintptr_t address, void *context);
  void *context;
  int found;
} containing_search;

static void visit_containing(const ElfW(Sym) *symbol, const char *name, uintptr_t bias, void *context) {
  containing_search *search = context;
  if (strstr(name, search->needle) == NULL) return;
  char *demangled = swift_demangle(name, strlen(name), NULL, NULL, 0);
  bool variable = ELF64_ST_TYPE(symbol->st_info) == STT_OBJECT && symbol->st_shndx != SHN_UNDEF
      && symbol->st_value != 0;
  search->each(demangled ? demangled : name, variable ? bias + symbol->st_value : 0, search->context);
  free(demangled);
  search->found++;
}

int rc_executable_symbols_containing(
    const char *needle, void (*each)(const char *name, uintptr_t address, void *context),
    void *context) {
  containing_search search = {.needle = needle, .each = each, .context = context};
  return each_executable_symbol(visit_containing, &search) < 0 ? -1 : search.found;
}

typedef struct {
  const uintptr_t *addresses;
  int count;
  void (*each)(int index, const char *name, uintptr_t start, void *context);
  void *context;
} function_search;

static void visit_function(const ElfW(Sym) *symbol, const char *name, uintptr_t bias, void *context) {
  function_search *search = context;
  if (ELF64_ST_TYPE(symbol->st_info) != STT_FUNC || symbol->st_shndx == SHN_UNDEF
      || symbol->st_size == 0) {
    return;
  }
  uintptr_t start = bias + symbol->st_value;
  for (int i = 0; i < search->count; i++) {
    if (search->addresses[i] >= start && search->addresses[i] < start + symbol->st_size) {
      search->each(i, name, start, search->context);
    }
  }
}

typedef struct {
  void (*each)(const char *name, uintptr_t address, uintptr_t size, void *context);
  void *context;
} object_search;

static void visit_object(const ElfW(Sym) *symbol, const char *name, uintptr_t bias, void *context) {
  object_search *search = context;
  if (ELF64_ST_TYPE(symbol->st_info) != STT_OBJECT || symbol->st_shndx == SHN_UNDEF
      || symbol->st_size == 0 || symbol->st_value == 0) {
    return;
  }
  search->each(name, bias + symbol->st_value, symbol->st_size, search->context);
}

int rc_executable_objects(
    void (*each)(const char *name, uintptr_t address, uintptr_t size, void *context), void *context) {
  object_search search = {.each = each, .context = context};
  return each_executable_symbol(visit_object, &search);
}

int rc_executable_functions_at(
    const uintptr_t *addresses, int count,
    void (*each)(int index, const char *name, uintptr_t start, void *context), void *context) {
  function_search search = {.addresses = addresses, .count = count, .each = each, .context = context};
  return each_executable_symbol(visit_function, &search);
}

bool rc_in_executable(const void *address) {
  Dl_info info;
  struct link_map *map = NULL;
  if (dladdr1(address, &info, (void **)&map, RTLD_DL_LINKMAP) == 0 || map == NULL) return false;
  /* The main program's link map is first. */
  return map->l_prev == NULL;
}

char *rc_demangle(const char *mangled) {
  return swift_demangle(mangled, strlen(mangled), NULL, NULL, 0);
}
