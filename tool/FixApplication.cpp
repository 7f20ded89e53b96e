//===- FixApplication.cpp - --fix and --export-fixes ----------------------===//

#include "FixApplication.h"

#include "clang/Tooling/Core/Diagnostic.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <tuple>

namespace warpcheck::tool {

using clang::tooling::Replacement;
using clang::tooling::Replacements;

std::string canonicalFile(llvm::StringRef File, llvm::StringRef Directory) {
  llvm::SmallString<256> Path(File);
  llvm::sys::fs::make_absolute(Directory, Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  llvm::SmallString<256> Real;
  if (!llvm::sys::fs::real_path(Path, Real))
    return Real.str().str();
  return Path.str().str();
}

/// The fix-it a finding offers: its own, else (WithNotes) its first note's,
/// as clang::tooling::selectFirstFix chooses.
static const std::vector<FixIt> *offeredFix(const Finding &F, bool WithNotes) {
  if (!F.Fixes.empty())
    return &F.Fixes;
  if (WithNotes)
    for (const ReportedMessage &N : F.Notes)
      if (!N.Fixes.empty())
        return &N.Fixes;
  return nullptr;
}

/// Why \p R cannot join \p Existing, or empty. clang's Replacements::add
/// refuses overlapping ranges, but concatenates two insertions at one
/// offset in the order they come: for two different fix-its that is a
/// conflict too, as the result would depend on the order of the findings.
static std::string conflictWith(const Replacements &Existing, const Replacement &R) {
  if (R.getLength() == 0)
    for (const Replacement &E : Existing)
      if (E.getOffset() == R.getOffset() && E.getLength() == 0)
        return "it inserts at the same place as another fix-it";
  Replacements Trial = Existing;
  if (llvm::Error E = Trial.add(R)) {
    llvm::consumeError(std::move(E));
    return "it overlaps another fix-it";
  }
  return "";
}

FixSelection chooseFixes(const std::vector<Finding> &Findings, bool WithNotes,
                         llvm::StringRef WorkingDirectory,
                         const std::set<std::string> &WritableFiles) {
  FixSelection S;
  // The replacements already chosen: the same one offered again (another
  // launch, another unit including the header) is made once.
  std::set<std::tuple<std::string, unsigned, unsigned, std::string>> Made;
  for (const Finding &F : Findings) {
    const std::vector<FixIt> *Fix = offeredFix(F, WithNotes);
    if (!Fix)
      continue;
    ++S.Offered;
    ChosenFix Chosen{&F, {}};
    std::map<std::string, Replacements> Trial;
    std::string Why, WhyFile;
    for (const FixIt &X : *Fix) {
      std::string File = canonicalFile(X.File, WorkingDirectory);
      if (X.Offset < 0 || X.Length < 0) {
        Why = "its offsets are negative", WhyFile = File;
        break;
      }
      if (!WritableFiles.count(File)) {
        Why = "the file is not one of the analysed code (a system header, or not read)";
        WhyFile = File;
        break;
      }
      Replacement R(File, static_cast<unsigned>(X.Offset), static_cast<unsigned>(X.Length),
                    X.Replacement);
      if (Made.count({File, R.getOffset(), R.getLength(), X.Replacement}))
        continue;
      auto [It, New] = Trial.try_emplace(File);
      if (New && S.ByFile.count(File))
        It->second = S.ByFile[File];
      if (std::string Conflict = conflictWith(It->second, R); !Conflict.empty()) {
        Why = Conflict, WhyFile = File;
        break;
      }
      llvm::cantFail(It->second.add(R));
      Chosen.Replacements.push_back(std::move(R));
    }
    if (!Why.empty()) {
      S.Skipped.push_back({&F, WhyFile, Why});
      continue;
    }
    for (auto &[File, Replaces] : Trial)
      S.ByFile[File] = std::move(Replaces);
    for (const Replacement &R : Chosen.Replacements)
      Made.insert({R.getFilePath().str(), R.getOffset(), R.getLength(),
                   R.getReplacementText().str()});
    S.Chosen.push_back(std::move(Chosen));
  }
  return S;
}

namespace {

/// Byte offsets of lines and columns, each file read once.
class FileOffsets {
public:
  explicit FileOffsets(llvm::StringRef WorkingDirectory) : Cwd(WorkingDirectory) {}

  /// The byte offset of a 1-based line and byte column in \p File; 0 when
  /// the file cannot be read or is shorter.
  unsigned offsetOf(const std::string &File, std::int64_t Line, std::int64_t Column) {
    auto [It, New] = Buffers.try_emplace(File);
    if (New)
      if (auto Buffer = llvm::MemoryBuffer::getFile(canonicalFile(File, Cwd), /*IsText=*/false,
                                                    /*RequiresNullTerminator=*/false))
        It->second = std::move(*Buffer);
    if (!It->second || Line < 1 || Column < 1)
      return 0;
    llvm::StringRef Text = It->second->getBuffer();
    size_t At = 0;
    for (std::int64_t L = 1; L < Line; ++L) {
      At = Text.find('\n', At);
      if (At == llvm::StringRef::npos)
        return 0;
      ++At;
    }
    return static_cast<unsigned>(std::min<size_t>(At + Column - 1, Text.size()));
  }

private:
  std::string Cwd;
  std::map<std::string, std::unique_ptr<llvm::MemoryBuffer>> Buffers;
};

} // namespace

std::string exportFixesYaml(const FixSelection &S, llvm::StringRef MainSourceFile,
                            llvm::StringRef WorkingDirectory) {
  FileOffsets Offsets(WorkingDirectory);
  auto Message = [&](const ReportedMessage &M) {
    clang::tooling::DiagnosticMessage D(M.Message);
    if (M.File && !M.File->empty()) {
      D.FilePath = canonicalFile(*M.File, WorkingDirectory);
      D.FileOffset =
          Offsets.offsetOf(*M.File, M.Line.value_or(0), M.Column.value_or(0));
    } else {
      D.FileOffset = 0;
    }
    return D;
  };
  clang::tooling::TranslationUnitDiagnostics TU;
  TU.MainSourceFile = MainSourceFile.str();
  for (const ChosenFix &C : S.Chosen) {
    const Finding &F = *C.From;
    clang::tooling::Diagnostic D;
    D.DiagnosticName = F.Check;
    D.DiagLevel = F.Severity == "error" ? clang::tooling::Diagnostic::Error
                                        : clang::tooling::Diagnostic::Warning;
    D.BuildDirectory = WorkingDirectory.str();
    D.Message = Message(F);
    // Only what --fix makes: a note's fix-it that --fix-notes chose is the
    // diagnostic's own here, so that clang-apply-replacements makes it too.
    for (const Replacement &R : C.Replacements)
      llvm::cantFail(D.Message.Fix[R.getFilePath()].add(R));
    for (const ReportedMessage &N : F.Notes)
      D.Notes.push_back(Message(N));
    TU.Diagnostics.push_back(std::move(D));
  }
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  llvm::yaml::Output Out(OS);
  Out << TU;
  OS.flush();
  return Text;
}

llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Contents) {
  llvm::SmallString<256> Target(Path);
  llvm::SmallString<256> Real;
  if (!llvm::sys::fs::real_path(Path, Real))
    Target = Real;
  auto Fail = [&](const llvm::Twine &Why) {
    return llvm::createStringError(std::errc::io_error, "cannot write '%s': %s",
                                   Target.c_str(), Why.str().c_str());
  };
  llvm::sys::fs::file_status Status;
  if (std::error_code EC = llvm::sys::fs::status(Target, Status))
    return Fail(EC.message());
  llvm::SmallString<256> Temporary(Target);
  Temporary += ".warpcheck-fix-%%%%%%";
  int FD;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(Temporary, FD, Temporary))
    return Fail(EC.message());
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Contents;
    OS.close();
    if (OS.has_error()) {
      std::error_code EC = OS.error();
      OS.clear_error();
      llvm::sys::fs::remove(Temporary);
      return Fail(EC.message());
    }
  }
  // The fixed file keeps the permissions of the one it replaces.
  if (std::error_code EC = llvm::sys::fs::setPermissions(Temporary, Status.permissions())) {
    llvm::sys::fs::remove(Temporary);
    return Fail(EC.message());
  }
  if (std::error_code EC = llvm::sys::fs::rename(Temporary, Target)) {
    llvm::sys::fs::remove(Temporary);
    return Fail(EC.message());
  }
  return llvm::Error::success();
}

llvm::Error applyFixes(const FixSelection &S) {
  llvm::Error Errors = llvm::Error::success();
  for (const auto &[File, Replaces] : S.ByFile) {
    auto Buffer = llvm::MemoryBuffer::getFile(File, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!Buffer) {
      Errors = llvm::joinErrors(
          std::move(Errors), llvm::createStringError(Buffer.getError(), "cannot read '%s': %s",
                                                     File.c_str(),
                                                     Buffer.getError().message().c_str()));
      continue;
    }
    llvm::StringRef Code = (*Buffer)->getBuffer();
    // The file changed since it was analysed (or the fix-it is wrong): a
    // replacement past its end is not made.
    if (!Replaces.empty() && std::prev(Replaces.end())->getOffset() +
                                     std::prev(Replaces.end())->getLength() >
                                 Code.size()) {
      Errors = llvm::joinErrors(
          std::move(Errors),
          llvm::createStringError(std::errc::invalid_argument,
                                  "'%s' is shorter than its fix-it: changed since the analysis?",
                                  File.c_str()));
      continue;
    }
    llvm::Expected<std::string> Fixed = clang::tooling::applyAllReplacements(Code, Replaces);
    if (!Fixed) {
      Errors = llvm::joinErrors(std::move(Errors), Fixed.takeError());
      continue;
    }
    if (llvm::Error E = writeFileAtomically(File, *Fixed))
      Errors = llvm::joinErrors(std::move(Errors), std::move(E));
  }
  return Errors;
}

} // namespace warpcheck::tool
