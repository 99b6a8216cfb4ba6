//! Opening a GPU through wgpu: Vulkan, Metal or DX12 only (never a silent fall-back to OpenGL), the
//! adapter's own limits, the P-set and Grundy kernels compiled once (the P-set kernel once per number of
//! words a line takes, when a run first needs it), and device errors kept as text instead of wgpu's
//! default panic.

use super::{GpuError, Traffic};
use std::cell::Cell;
use std::sync::{Arc, Mutex, OnceLock};

/// Most 64-bit words per line of the P-set kernel (lines of up to 256 values, `GPU_MAX_RADIX`).
pub(super) const MAX_LINE_WORDS: usize = 4;

thread_local! {
    /// Host-device traffic issued by this thread: bytes up, bytes down, submissions, waits. Every
    /// device call of a run is made by the thread that runs it, so two runs on one device at once
    /// (tests) are counted apart.
    static COUNTERS: [Cell<u64>; 4] = Default::default();
}

fn count(i: usize, by: u64) {
    COUNTERS.with(|c| c[i].set(c[i].get() + by));
}

/// A compiled kernel and the layout of its bindings.
pub(super) struct Kernel {
    pub(super) pipeline: wgpu::ComputePipeline,
    pub(super) layout: wgpu::BindGroupLayout,
    /// Its bindings are 0 .. bindings.
    pub(super) bindings: u32,
}

impl Kernel {
    /// `head`: WGSL declarations put before the shared `tiers.wgsl` and the kernel's own source.
    fn new(device: &wgpu::Device, name: &str, head: &str, source: &str, bindings: u32) -> Kernel {
        let text = format!("{head}{}\n{source}", include_str!("tiers.wgsl"));
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(name),
            source: wgpu::ShaderSource::Wgsl(text.into()),
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(name),
            layout: None,
            module: &module,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            cache: None,
        });
        let layout = pipeline.get_bind_group_layout(0);
        Kernel {
            pipeline,
            layout,
            bindings,
        }
    }
}

/// An opened adapter and device with the P-set and Grundy pipelines.
pub struct Device {
    pub(super) device: wgpu::Device,
    pub(super) queue: wgpu::Queue,
    /// The P-set kernel for lines of 1, 2, ... [`MAX_LINE_WORDS`] words, without and with the
    /// mirror, compiled when first run.
    pset: [[OnceLock<Kernel>; 2]; MAX_LINE_WORDS],
    pub(super) grundy: Kernel,
    /// Largest storage binding and largest buffer, in bytes.
    pub(super) max_binding: u64,
    pub(super) max_buffer: u64,
    info: wgpu::AdapterInfo,
    /// The first error the device reported (validation, out of memory), if any.
    errors: Arc<Mutex<Option<String>>>,
}

impl Device {
    /// Opens the best adapter on Vulkan, Metal or DX12.
    pub fn open() -> Result<Device, GpuError> {
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
        desc.backends = wgpu::Backends::VULKAN | wgpu::Backends::METAL | wgpu::Backends::DX12;
        let instance = wgpu::Instance::new(desc);
        let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            ..Default::default()
        }))
        .map_err(|_| GpuError::NoAdapter)?;
        let info = adapter.get_info();
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("nimlab"),
            required_features: wgpu::Features::empty(),
            required_limits: adapter.limits(),
            ..Default::default()
        }))
        .map_err(|e| GpuError::Device(format!("{}: {e}", info.name)))?;
        let errors: Arc<Mutex<Option<String>>> = Arc::default();
        let sink = errors.clone();
        device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
            let mut slot = sink.lock().unwrap_or_else(|p| p.into_inner());
            slot.get_or_insert_with(|| e.to_string());
        }));
        let grundy = Kernel::new(&device, "grundy", "", include_str!("grundy.wgsl"), 7);
        let limits = device.limits();
        let d = Device {
            max_binding: limits.max_storage_buffer_binding_size,
            max_buffer: limits.max_buffer_size,
            device,
            queue,
            pset: Default::default(),
            grundy,
            info,
            errors,
        };
        // Lines of one word, compiled now: a kernel that does not compile fails here.
        d.pset(1, false);
        d.check()?;
        Ok(d)
    }

    /// The P-set kernel for lines of `words` 64-bit words (1 to [`MAX_LINE_WORDS`]), with the code that
    /// reads lines through a mirror or without it (so that a run without one pays nothing for it),
    /// compiled on first use; a compilation error shows in [`Device::check`].
    pub(super) fn pset(&self, words: usize, mirror: bool) -> &Kernel {
        self.pset[words - 1][mirror as usize].get_or_init(|| {
            Kernel::new(
                &self.device,
                "pset",
                &format!("const L: u32 = {words}u;\nconst MIRROR: bool = {mirror};\n"),
                include_str!("pset.wgsl"),
                7,
            )
        })
    }

    /// The adapter, in words: its name and back end, e.g. "llvmpipe (LLVM 15.0.6, 256 bits) (Vulkan)".
    pub fn adapter(&self) -> String {
        format!("{} ({:?})", self.info.name, self.info.backend)
    }

    /// True for a driver that runs on the CPU (lavapipe, WARP): correct, but never faster than the
    /// CPU engine.
    pub fn is_cpu(&self) -> bool {
        self.info.device_type == wgpu::DeviceType::Cpu
    }

    /// The first error the device reported since it was opened, as one line.
    pub(super) fn check(&self) -> Result<(), GpuError> {
        let slot = self.errors.lock().unwrap_or_else(|p| p.into_inner());
        match slot.as_ref() {
            Some(e) => Err(GpuError::Device(format!("{}: {e}", self.info.name))),
            None => Ok(()),
        }
    }

    /// Host-device traffic of the runs this thread made on any device so far (subtract two
    /// readings for one run).
    pub fn traffic(&self) -> Traffic {
        COUNTERS.with(|c| Traffic {
            uploaded_bytes: c[0].get(),
            downloaded_bytes: c[1].get(),
            submissions: c[2].get(),
            waits: c[3].get(),
        })
    }

    /// Uploads `data` into `buffer` at `offset` (counted).
    pub(super) fn write(&self, buffer: &wgpu::Buffer, offset: u64, data: &[u8]) {
        count(0, data.len() as u64);
        self.queue.write_buffer(buffer, offset, data);
    }

    /// Counts `bytes` read back from the device.
    pub(super) fn downloaded(&self, bytes: u64) {
        count(1, bytes);
    }

    /// Submits one command buffer (counted).
    pub(super) fn submit(&self, commands: wgpu::CommandBuffer) {
        count(2, 1);
        self.queue.submit([commands]);
    }

    /// Waits for the queue to finish (counted).
    pub(super) fn wait(&self) -> Result<(), GpuError> {
        count(3, 1);
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| GpuError::Device(format!("{}: {e}", self.info.name)))?;
        self.check()
    }

    /// A buffer that may not fit the device: `None` when the device reports it out of memory.
    pub(super) fn try_buffer(
        &self,
        label: &str,
        bytes: u64,
        usage: wgpu::BufferUsages,
    ) -> Option<wgpu::Buffer> {
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let b = self.buffer(label, bytes, usage);
        match pollster::block_on(scope.pop()) {
            None => Some(b),
            Some(_) => None,
        }
    }

    pub(super) fn buffer(
        &self,
        label: &str,
        bytes: u64,
        usage: wgpu::BufferUsages,
    ) -> wgpu::Buffer {
        self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            // Never 0 bytes (a binding must not be empty), and whole words.
            size: bytes.max(16).next_multiple_of(16),
            usage,
            mapped_at_creation: false,
        })
    }
}
