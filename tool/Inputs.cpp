//===- Inputs.cpp - what warpcheck analyses, and with which arguments -----===//

#include "Inputs.h"
#include "CompileCommand.h"
#include "LaunchMode.h"

#include "warpcheck/model/Arch.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <map>
#include <set>

#ifndef WARPCHECK_CLANG_RESOURCE_DIR
#define WARPCHECK_CLANG_RESOURCE_DIR ""
#endif

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace warpcheck::tool {

namespace {

bool hasCudaExtension(llvm::StringRef Path) {
  llvm::StringRef Ext = path::extension(Path);
  return Ext == ".cu" || Ext == ".cuh";
}

std::string absolutePath(llvm::StringRef Base, llvm::StringRef P) {
  llvm::SmallString<256> Abs(P);
  if (!path::is_absolute(Abs))
    fs::make_absolute(Base, Abs);
  path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return Abs.str().str();
}

/// The .cu and .cuh files under Folder, in path order (hidden folders such
/// as .git are not entered).
std::vector<std::string> cudaFilesUnder(llvm::StringRef Folder) {
  std::vector<std::string> Files;
  std::error_code EC;
  for (fs::recursive_directory_iterator It(Folder, EC), End; It != End && !EC;
       It.increment(EC)) {
    llvm::StringRef Name = path::filename(It->path());
    if (It->type() == fs::file_type::directory_file && Name.starts_with(".")) {
      It.no_push();
      continue;
    }
    if (It->type() != fs::file_type::directory_file && hasCudaExtension(It->path()))
      Files.push_back(It->path());
  }
  llvm::sort(Files);
  return Files;
}

/// The files an #include line of File names, resolved against File's
/// folder and the -I folders, when they exist. A textual scan (no macro
/// expansion): it only decides which files of a folder are analysed on
/// their own.
std::vector<std::string> includedFiles(const std::string &File,
                                       const std::vector<std::string> &IncludeDirs) {
  std::vector<std::string> Out;
  // A device or a FIFO is never opened (it could be read without end or
  // block); the input check refuses it by name later.
  if (!fs::is_regular_file(File))
    return Out;
  auto Buffer = llvm::MemoryBuffer::getFile(File);
  if (!Buffer)
    return Out;
  llvm::SmallVector<llvm::StringRef, 256> Lines;
  (*Buffer)->getBuffer().split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    Line = Line.ltrim();
    if (!Line.consume_front("#"))
      continue;
    Line = Line.ltrim();
    if (!Line.consume_front("include"))
      continue;
    Line = Line.ltrim();
    if (Line.empty() || (Line.front() != '"' && Line.front() != '<'))
      continue;
    char Close = Line.front() == '"' ? '"' : '>';
    llvm::StringRef Name = Line.drop_front().take_until([Close](char C) { return C == Close; });
    std::vector<std::string> Dirs = {path::parent_path(File).str()};
    Dirs.insert(Dirs.end(), IncludeDirs.begin(), IncludeDirs.end());
    for (const std::string &D : Dirs) {
      std::string Candidate = absolutePath(D, Name);
      if (fs::is_regular_file(Candidate)) {
        Out.push_back(Candidate);
        break;
      }
    }
  }
  return Out;
}

/// -I and -isystem folders of command-line compiler arguments, absolute.
std::vector<std::string> includeDirsOf(const std::vector<std::string> &Args,
                                       llvm::StringRef Cwd) {
  std::vector<std::string> Dirs;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    if ((A == "-I" || A == "-isystem") && I + 1 < Args.size())
      Dirs.push_back(absolutePath(Cwd, Args[++I]));
    else if (A.starts_with("-I") && A.size() > 2)
      Dirs.push_back(absolutePath(Cwd, A.drop_front(2)));
  }
  return Dirs;
}

/// Of the files of one folder walk, those not included by another of them:
/// the others are analysed through their includers. Files that only
/// include each other (a cycle) keep the first of them.
std::vector<std::string> rootsOf(const std::vector<std::string> &Files,
                                 const std::vector<std::string> &IncludeDirs,
                                 std::map<std::string, std::string> &IncludedBy) {
  std::set<std::string> Candidates(Files.begin(), Files.end());
  std::map<std::string, std::vector<std::string>> Includes;
  for (const std::string &F : Files)
    for (const std::string &Inc : includedFiles(F, IncludeDirs))
      if (Candidates.count(Inc) && Inc != F) {
        Includes[F].push_back(Inc);
        IncludedBy.emplace(Inc, F);
      }
  std::vector<std::string> Roots;
  std::set<std::string> Reached;
  auto Reach = [&](const std::string &Root) {
    std::vector<std::string> Work = {Root};
    while (!Work.empty()) {
      std::string F = Work.back();
      Work.pop_back();
      if (!Reached.insert(F).second)
        continue;
      for (const std::string &Inc : Includes[F])
        Work.push_back(Inc);
    }
  };
  for (const std::string &F : Files)
    if (!IncludedBy.count(F)) {
      Roots.push_back(F);
      Reach(F);
    }
  for (const std::string &F : Files)
    if (!Reached.count(F)) {
      Roots.push_back(F);
      IncludedBy.erase(F);
      Reach(F);
    }
  llvm::sort(Roots);
  return Roots;
}

/// Whether a compile database entry compiles CUDA: a .cu/.cuh file, or one
/// compiled as CUDA (`nvcc -x cu`, `clang -x cuda`).
bool compilesCuda(const clang::tooling::CompileCommand &C) {
  if (hasCudaExtension(C.Filename))
    return true;
  TranslatedCommand T = translateCompileCommand(C.CommandLine);
  for (size_t I = 0; I + 1 < T.ClangArgs.size(); ++I)
    if (T.ClangArgs[I] == "-x")
      return T.ClangArgs[I + 1] == "cuda";
  return false;
}

bool collectFromDatabase(const CommandLine &CL, llvm::StringRef Cwd, InputSet &Out) {
  std::string Err;
  llvm::SmallString<256> DbPath(CL.BuildDir);
  path::append(DbPath, "compile_commands.json");
  if (!fs::exists(DbPath)) {
    error(DbPath + ": no compile database (compile_commands.json) in '" + CL.BuildDir + "'");
    return false;
  }
  // As for a source: a device or a FIFO is never opened.
  if (!fs::is_regular_file(DbPath)) {
    error(DbPath + ": the compile database is not a regular file (a device, a FIFO or a "
                   "folder): refused");
    return false;
  }
  auto Db = clang::tooling::JSONCompilationDatabase::loadFromFile(
      DbPath, Err, clang::tooling::JSONCommandLineSyntax::AutoDetect);
  if (!Db) {
    error(DbPath + ": malformed compile database: " + Err);
    return false;
  }
  // A relative "directory" (the format wants it absolute; a generator may
  // not) is the database's folder's.
  std::string DbFolder = absolutePath(Cwd, CL.BuildDir);
  auto InDatabaseFolder = [&](clang::tooling::CompileCommand C) {
    C.Directory = absolutePath(DbFolder, C.Directory);
    return C;
  };
  // The database's CUDA entries, first entry of each file.
  std::map<std::string, clang::tooling::CompileCommand> Cuda;
  for (clang::tooling::CompileCommand C : Db->getAllCompileCommands()) {
    C = InDatabaseFolder(std::move(C));
    std::string File = absolutePath(C.Directory, C.Filename);
    if (!Cuda.count(File) && compilesCuda(C))
      Cuda.emplace(File, C);
  }
  auto Add = [&](const std::string &File, const clang::tooling::CompileCommand &C) {
    if (!llvm::any_of(Out.Inputs, [&](const Input &I) { return I.File == File; }))
      Out.Inputs.push_back({File, C.Directory, C.CommandLine});
  };
  // Every other entry (first command of each file), in the database's
  // order, for --launches-from=database.
  auto AddLaunchSources = [&] {
    if (!CL.LaunchesFromDatabase)
      return;
    std::set<std::string> Seen;
    for (const Input &I : Out.Inputs)
      Seen.insert(I.File);
    for (clang::tooling::CompileCommand C : Db->getAllCompileCommands()) {
      C = InDatabaseFolder(std::move(C));
      std::string File = absolutePath(C.Directory, C.Filename);
      if (Seen.insert(File).second)
        Out.LaunchSources.push_back({File, C.Directory, C.CommandLine});
    }
  };
  if (CL.Files.empty()) {
    if (Cuda.empty()) {
      error(DbPath + ": no CUDA source (.cu, or compiled with -x cu) in the compile database");
      return false;
    }
    for (const auto &[File, C] : Cuda)
      Add(File, C);
    AddLaunchSources();
    return true;
  }
  for (const std::string &F : CL.Files) {
    std::string Abs = absolutePath(Cwd, F);
    if (fs::is_directory(Abs)) {
      std::string Prefix = Abs + "/";
      bool Any = false;
      for (const auto &[File, C] : Cuda)
        if (llvm::StringRef(File).starts_with(Prefix)) {
          Add(File, C);
          Any = true;
        }
      if (!Any)
        Out.Problems.push_back({F, "no CUDA file of " + DbPath.str().str() + " is in this folder"});
      continue;
    }
    std::vector<clang::tooling::CompileCommand> Cmds = Db->getCompileCommands(Abs);
    if (Cmds.empty()) {
      Out.Problems.push_back({F, "no compile command for this file in " + DbPath.str().str()});
      continue;
    }
    Add(Abs, InDatabaseFolder(Cmds.front()));
  }
  AddLaunchSources();
  return true;
}

} // namespace

bool collectInputs(const CommandLine &CL, llvm::StringRef Cwd, InputSet &Out) {
  if (!CL.LaunchCommand.empty()) {
    for (const std::string &Source : cudaSourcesOfCommand(CL.LaunchCommand))
      Out.Inputs.push_back({Source, Cwd.str(), CL.LaunchCommand});
    return true;
  }
  if (!CL.BuildDir.empty())
    return collectFromDatabase(CL, Cwd, Out);
  if (CL.Files.empty()) {
    error("no input files (see warpcheck --help)");
    return false;
  }
  std::vector<std::string> IncludeDirs = includeDirsOf(CL.ExtraArgs, Cwd);
  std::set<std::string> Seen;
  for (const std::string &F : CL.Files) {
    // Files keep the spelling they were given in (messages name them so);
    // a folder's files are spelled below it.
    if (!fs::is_directory(absolutePath(Cwd, F))) {
      if (Seen.insert(absolutePath(Cwd, F)).second)
        Out.Inputs.push_back({F, Cwd.str(), {}});
      continue;
    }
    std::vector<std::string> Files = cudaFilesUnder(F);
    if (Files.empty()) {
      Out.Problems.push_back({F, "is a folder with no .cu or .cuh file"});
      continue;
    }
    std::map<std::string, std::string> Spelled;
    std::vector<std::string> Absolute;
    for (const std::string &File : Files) {
      Absolute.push_back(absolutePath(Cwd, File));
      Spelled[Absolute.back()] = File;
    }
    std::map<std::string, std::string> IncludedBy;
    for (const std::string &Root : rootsOf(Absolute, IncludeDirs, IncludedBy))
      if (Seen.insert(Root).second)
        Out.Inputs.push_back({Spelled[Root], Cwd.str(), {}});
    for (const auto &[File, By] : IncludedBy)
      Out.Notes.push_back({Spelled[File], "analysed through " + Spelled[By] + ", which includes it"});
  }
  return true;
}

namespace {

/// "-arch=native builds for ...": what the model uses for a build that names
/// no architecture the table can take.
std::string keywordNote(llvm::StringRef Keyword) {
  std::string Default(model::DefaultArchName);
  if (Keyword == "native")
    return "the build's -arch=native targets the GPU of the machine that builds it, which "
           "warpcheck cannot see; modelled for " + Default + " (--arch chooses)";
  return "the build's -arch=" + Keyword.str() + " targets every architecture nvcc knows; "
         "modelled for " + Default + " (--arch chooses; a list such as --arch=" + Default +
         ",sm_80 compares occupancy)";
}

} // namespace

PlannedJob planJob(const Input &In, const CommandLine &CL,
                   const std::vector<std::string> &CudaArgs, const std::string &ToolkitRoot) {
  PlannedJob P;
  std::vector<std::string> Args;
  std::vector<std::string> RequestedArchs, Keywords;
  std::optional<unsigned> MaxRegCount;
  if (!In.CommandArgs.empty()) {
    TranslatedCommand T = translateCompileCommand(In.CommandArgs);
    RequestedArchs = T.GpuArchs;
    Keywords = T.ArchKeywords;
    MaxRegCount = T.MaxRegCount;
    for (const std::string &A : makeIncludePathsAbsolute(T.ClangArgs, In.Directory)) {
      llvm::StringRef S = A;
      // The source file itself is added by the tool; one device
      // architecture is chosen below.
      if (S.starts_with("--cuda-gpu-arch=") || S.starts_with("--offload-arch=") ||
          S == "-fsyntax-only")
        continue;
      if (!S.starts_with("-") && absolutePath(In.Directory, S) == absolutePath(In.Directory, In.File))
        continue;
      Args.push_back(A);
    }
  }
  for (const std::string &A : makeIncludePathsAbsolute(CL.ExtraArgs, In.Directory)) {
    llvm::StringRef S = A;
    if (S.starts_with("--cuda-gpu-arch=")) {
      RequestedArchs.push_back(S.drop_front(16).str());
      continue;
    }
    Args.push_back(A);
  }
  // The model's architecture: --arch, else the newest the build asks for
  // that the table has.
  std::string ModelArch = CL.Arch;
  if (ModelArch.empty()) {
    const model::ArchSpec *Best = nullptr;
    std::vector<std::string> Unknown;
    for (const std::string &A : RequestedArchs) {
      const model::ArchSpec *S = model::findArch(A);
      if (!S) {
        if (!llvm::is_contained(Unknown, A))
          Unknown.push_back(A);
        continue;
      }
      if (!Best || S->ComputeMajor * 10 + S->ComputeMinor >=
                       Best->ComputeMajor * 10 + Best->ComputeMinor)
        Best = S;
    }
    std::string Known = llvm::join(model::knownArchNames(), ", ");
    if (Best) {
      ModelArch = Best->Name;
      if (!Unknown.empty())
        P.Notes.push_back("the build also targets " + llvm::join(Unknown, ", ") +
                          ", which warpcheck's architecture table does not have; modelled "
                          "for " + ModelArch);
    } else if (!Unknown.empty()) {
      P.Problem = "the build targets " + llvm::join(Unknown, ", ") +
                  ", which warpcheck's architecture table does not have (known: " + Known +
                  "); give --arch=<one of those>";
      return P;
    } else {
      ModelArch = std::string(model::DefaultArchName);
      for (const std::string &K : Keywords)
        P.Notes.push_back(keywordNote(K));
    }
  }
  // clang 19 knows GPU architectures up to sm_90a: newer ones are parsed as
  // the newest it knows while the model keeps the requested one.
  std::string ParseArch = clangParseArchFor(ModelArch);
  if (ParseArch.empty())
    ParseArch = std::string(model::DefaultArchName);
  std::vector<std::string> Final = {"-x", "cuda", "--cuda-device-only",
                                    "--cuda-gpu-arch=" + ParseArch};
  if (std::string(WARPCHECK_CLANG_RESOURCE_DIR).size() &&
      fs::is_directory(WARPCHECK_CLANG_RESOURCE_DIR))
    Final.push_back(std::string("-resource-dir=") + WARPCHECK_CLANG_RESOURCE_DIR);
  // Every error of the unit, none stopping the parse (as the worker sets
  // it; printed so that clang-tidy runs with --print-clang-args do too).
  Final.push_back("-ferror-limit=0");
  Final.insert(Final.end(), CudaArgs.begin(), CudaArgs.end());
  Final.insert(Final.end(), Args.begin(), Args.end());

  TranslationUnitJob &Job = P.Job;
  Job.File = In.File;
  Job.Directory = In.Directory;
  Job.ClangArgs = std::move(Final);
  Job.Arch = ModelArch;
  // Without --checks, the checks each unit's .clang-tidy enables.
  Job.Checks = CL.ChecksGiven ? CL.Checks : "";
  Job.WarningsAsErrors = CL.WarningsAsErrors;
  Job.DefaultBlock = CL.DefaultBlock;
  Job.HeaderFilter = CL.HeaderFilter;
  // The build's -maxrregcount caps ptxas's count as it caps the build's;
  // the user's --config comes later and wins.
  if (MaxRegCount)
    Job.CheckOptions.push_back("MaxRegisterCount=" + std::to_string(*MaxRegCount));
  // --arch and --default-block win over a .clang-tidy's global options.
  if (!CL.Arch.empty())
    Job.CheckOptions.push_back("Arch=" + CL.Arch);
  if (CL.DefaultBlockGiven)
    Job.CheckOptions.push_back("DefaultBlock=" + CL.DefaultBlock);
  Job.CheckOptions.insert(Job.CheckOptions.end(), CL.CheckOptions.begin(),
                          CL.CheckOptions.end());
  Job.ToolkitRoot = ToolkitRoot;
  Job.CompareArchs = CL.CompareArchs;
  Job.SassListing = CL.SassListing;
  return P;
}

} // namespace warpcheck::tool
